package dev.redlock.doctor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.redlock.RedlockConfig;
import java.io.StringReader;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** The three outputs of one report: the properties file is a config the library loads, JSON parses, no password shows. */
class ReportFormatsTest {
    static final List<String> RAW = List.of("redis://app:s3cret@10.0.0.1:6379", "redis://app:s3cret@10.0.0.2:6379",
            "redis://app:s3cret@10.0.0.3:6379");

    static DoctorReport report() {
        List<NodeReport> nodes = List.of(
                RecommenderTest.node("10.0.0.1:6379", 2.5, 40, 20, 0.1),
                RecommenderTest.node("10.0.0.2:6379", 7.1, 1200, 20, -0.3),
                RecommenderTest.down("10.0.0.3:6379"));
        return new DoctorReport(nodes, Recommender.recommend(nodes, Duration.ofSeconds(12)), RAW, "locks:",
                Duration.ofSeconds(10), Duration.ofMillis(5), Duration.ofSeconds(12), Instant.parse("2025-01-01T00:00:00Z"));
    }

    @Test
    void thePropertiesFileLoadsAsTheRecommendedConfig() throws Exception {
        DoctorReport r = report();
        Properties p = new Properties();
        p.load(new StringReader(r.toProperties()));
        RedlockConfig cfg = RedlockConfig.fromProperties(p);
        Recommendation rec = r.recommendation().orElseThrow();
        assertEquals(rec.quorum(), cfg.quorum());
        assertEquals(rec.nodeTimeout(), cfg.nodeTimeout());
        assertEquals(rec.driftFactor(), cfg.driftFactor());
        assertEquals(rec.restartQuarantine(), cfg.restartQuarantine());
        assertEquals("locks:", cfg.keyPrefix());
        assertEquals(3, cfg.nodes().size());
        assertEquals(ReportProperties.duration(rec.minTtl()), p.getProperty("chaos.ttl"));
        assertTrue(r.toProperties().contains("# WARNING: 1 problem(s)"), r.toProperties());
    }

    @Test
    void theJsonParsesAndCarriesTheVerdict() {
        JsonObject o = JsonParser.parseString(report().toJson()).getAsJsonObject();
        assertEquals(3, o.getAsJsonArray("nodes").size());
        assertEquals(DoctorReport.UNREACHABLE, o.getAsJsonObject("verdict").get("exitCode").getAsInt());
        assertEquals(15.0, o.getAsJsonObject("recommendation").get("nodeTimeoutMs").getAsDouble());
        assertEquals("UNREACHABLE", o.getAsJsonArray("nodes").get(2).getAsJsonObject().get("reach").getAsString());
    }

    @Test
    void onlyThePropertiesFileHasThePassword() {
        DoctorReport r = report();
        assertFalse(r.toText().contains("s3cret"));
        assertFalse(r.toJson().contains("s3cret"));
        assertFalse(r.toString().contains("s3cret"));
        assertTrue(r.toProperties().contains("s3cret"), "the config file must work as written");
    }

    @Test
    void theTextHasATablePerNodeAndTheReasons() {
        String text = report().toText();
        assertTrue(text.contains("\n10.0.0.2:6379  ok\n"), text);
        assertTrue(text.contains("\n10.0.0.3:6379  UNREACHABLE\n"), text);
        assertTrue(text.contains("redlock.nodeTimeout=15ms\n      2 x the slowest"), text);
        assertTrue(text.contains("verdict: 1 problem(s) (exit 3)"), text);
    }
}
