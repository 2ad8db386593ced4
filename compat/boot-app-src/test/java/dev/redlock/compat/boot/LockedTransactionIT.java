package dev.redlock.compat.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.LeaseLostException;
import dev.redlock.Redlock;
import dev.redlock.micrometer.RedlockObservations;
import dev.redlock.spring.Locked;
import dev.redlock.spring.LockedContext;
import dev.redlock.testkit.RedisCluster;
import dev.redlock.testkit.Sleep;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * {@code @Locked} in a Spring Boot application of this line, auto-configured by the starter, on real nodes and a real
 * JDBC transaction (Boot's H2 DataSource and DataSourceTransactionManager): locked by the SpEL key, the lease inside
 * the method, released after the commit (not before), a lost lease rolling the transaction back, and the lock's
 * observations recorded as timers through Boot's ObservationRegistry.
 */
class LockedTransactionIT {
    private static RedisCluster cluster;
    private static ConfigurableApplicationContext app;
    private static Redlock other;
    static final List<String> SEEN = new CopyOnWriteArrayList<>();

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {
        @Bean
        Invoices invoices(JdbcTemplate jdbc) {
            return new Invoices(jdbc);
        }

        @Bean
        Billing billing(Invoices invoices) {
            return new Billing(invoices);
        }
    }

    public static class Invoices {
        private final JdbcTemplate jdbc;

        public Invoices(JdbcTemplate jdbc) {
            this.jdbc = jdbc;
        }

        @Locked(resource = "'invoice:' + #id", ttl = "2s", maxWait = "1s")
        @Transactional
        public long charge(String id, long stallMs) {
            long token = LockedContext.lease().fencingToken();
            jdbc.update("INSERT INTO invoice (id, fence) VALUES (?, ?)", id, token);
            TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                @Override
                public void afterCommit() {
                    SEEN.add("committed " + id + " while " + (heldElsewhere("invoice:" + id) ? "held" : "free"));
                }
            });
            if (stallMs > 0) Sleep.millis(stallMs);
            return token;
        }

        @Locked(resource = "'invoice:' + #id", ttl = "2s")
        public void insert(String id) {
            jdbc.update("INSERT INTO invoice (id, fence) VALUES (?, ?)", id, LockedContext.lease().fencingToken());
        }
    }

    public static class Billing {
        private final Invoices invoices;

        public Billing(Invoices invoices) {
            this.invoices = invoices;
        }

        @Transactional
        public void insertInOneTransaction(String a) {
            invoices.insert(a);
            SEEN.add("after insert " + a + ": " + (heldElsewhere("invoice:" + a) ? "held" : "free"));
        }
    }

    static boolean heldElsewhere(String resource) {
        return other.tryAcquire(resource, Duration.ofSeconds(1)).map(l -> {
            l.release();
            return false;
        }).orElse(true);
    }

    @BeforeAll
    static void start() {
        cluster = RedisCluster.start(3);
        app = new SpringApplicationBuilder(App.class).web(WebApplicationType.NONE).run(
                "--redlock.nodes=" + String.join(",", cluster.uris()),
                "--redlock.restart-quarantine=0",
                "--redlock.node-timeout=250ms",
                "--redlock.max-hold=1500ms",
                "--spring.datasource.url=jdbc:h2:mem:locked-tx;DB_CLOSE_DELAY=-1");
        app.getBean(JdbcTemplate.class).execute("CREATE TABLE invoice (id VARCHAR(64) PRIMARY KEY, fence BIGINT)");
        other = Redlock.create(app.getBean(Redlock.class).config().toBuilder().retryCount(0).build());
    }

    @AfterAll
    static void stop() {
        if (other != null) other.close();
        if (app != null) app.close();
        if (cluster != null) cluster.close();
    }

    @BeforeEach
    void clear() {
        SEEN.clear();
        app.getBean(JdbcTemplate.class).update("DELETE FROM invoice");
    }

    private static long fenceOf(String id) {
        List<Long> f = app.getBean(JdbcTemplate.class).queryForList("SELECT fence FROM invoice WHERE id = ?", Long.class, id);
        return f.isEmpty() ? -1 : f.get(0);
    }

    @Test
    void locksBySpelKeyAndReleasesAfterTheCommit() {
        long token = app.getBean(Invoices.class).charge("42", 0);
        assertEquals(List.of("committed 42 while held"), SEEN, "the lease outlived the commit");
        assertEquals(token, fenceOf("42"), "the lease's token was written");
        assertFalse(heldElsewhere("invoice:42"), "released after the commit");
        assertEquals(0, cluster.lockKeys("redlock:").size(), cluster.lockKeys("redlock:").toString());
    }

    @Test
    void aLockedCallInsideAnEnclosingTransactionKeepsItsLeaseUntilTheCommit() {
        app.getBean(Billing.class).insertInOneTransaction("a1");
        assertEquals(List.of("after insert a1: held"), SEEN);
        assertTrue(fenceOf("a1") > 0);
        assertFalse(heldElsewhere("invoice:a1"), "released after the commit");
    }

    @Test
    void aLeaseLostWhileTheMethodRanRollsItsTransactionBack() {
        // max-hold 1.5 s ends the lease while the method stalls 2.5 s
        LeaseLostException e = assertThrows(LeaseLostException.class, () -> app.getBean(Invoices.class).charge("lost", 2500));
        assertTrue(e.getMessage().contains("maxHold"), e.getMessage());
        assertEquals(-1, fenceOf("lost"), "the row written under the lost lease was rolled back");
        assertEquals(List.of(), SEEN);
    }

    @Test
    void acquireExtendAndReleaseAreObservedThroughBootsRegistry() {
        assertTrue(app.getBeanProvider(RedlockObservations.class).getIfAvailable() != null, "the starter observes the Redlock");
        app.getBean(Invoices.class).charge("observed", 0);
        MeterRegistry meters = app.getBean(MeterRegistry.class);
        assertTrue(meters.get("redlock.acquire").tags("outcome", "acquired", "error", "none").timer().count() >= 1);
        assertTrue(meters.get("redlock.release").tags("outcome", "released").timer().count() >= 1);
        assertFalse(meters.find("redlock.acquire").timers().isEmpty());
        meters.find("redlock.acquire").timers().forEach(t -> assertTrue(t.getId().getTag("error") != null,
                "every redlock.acquire timer comes from the observations (RedlockMetrics leaves its own out): " + t.getId()));
    }
}
