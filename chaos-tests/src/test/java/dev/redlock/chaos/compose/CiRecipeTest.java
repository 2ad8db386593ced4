package dev.redlock.chaos.compose;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonElement;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * The CI recipe (docs/ci/redlock-chaos.yml) cannot run here (no Docker engine, no GitHub runner), so this checks what
 * ties it to the rest: it is valid YAML, starts docker-compose.redlock.yml and stops it in any case, waits for the
 * Toxiproxy API the compose file publishes, and passes the ChaosSuite exactly the nodes that the compose file's
 * proxies listen on, in order, and the test class of the user-side module.
 */
class CiRecipeTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @SuppressWarnings("unchecked")
    private static List<String> runSteps() throws IOException {
        Map<String, Object> wf = new Yaml().load(Files.readString(ROOT.resolve("docs/ci/redlock-chaos.yml")));
        Map<String, Object> jobs = (Map<String, Object>) wf.get("jobs");
        List<Map<String, Object>> steps = (List<Map<String, Object>>) ((Map<String, Object>) jobs.get("chaos")).get("steps");
        List<String> out = new ArrayList<>();
        for (Map<String, Object> s : steps) if (s.get("run") != null) out.add(((String) s.get("run")).replaceAll("\\s+", " ").trim());
        return out;
    }

    @Test
    void startsAndStopsTheComposeNodes() throws IOException {
        List<String> runs = runSteps();
        assertEquals("docker compose -f docker-compose.redlock.yml up -d", runs.get(0));
        assertEquals("docker compose -f docker-compose.redlock.yml down", runs.get(runs.size() - 1));
        assertTrue(runs.get(1).contains("http://127.0.0.1:8474/proxies"), runs.get(1));
    }

    @Test
    void passesTheComposeProxiesAsNodes() throws IOException {
        String mvn = runSteps().stream().filter(r -> r.startsWith("mvn ")).findFirst().orElseThrow();
        Matcher nodes = Pattern.compile("-Dredlock\\.chaos\\.nodes=(\\S+)").matcher(mvn);
        assertTrue(nodes.find(), mvn);
        List<String> expected = new ArrayList<>();
        for (JsonElement p : JsonParser.parseString(Files.readString(ROOT.resolve("docker/toxiproxy.json"))).getAsJsonArray()) {
            String listen = p.getAsJsonObject().get("listen").getAsString();
            expected.add("redis://127.0.0.1:" + listen.substring(listen.lastIndexOf(':') + 1));
        }
        assertEquals(expected, List.of(nodes.group(1).split(",")));
        assertTrue(mvn.contains("-Dredlock.chaos.toxiproxy=http://127.0.0.1:8474"), mvn);
        Matcher test = Pattern.compile("-Dtest=(\\w+)").matcher(mvn);
        assertTrue(test.find(), mvn);
        assertTrue(Files.exists(ROOT.resolve("chaos-user-build/src/test/java/com/example/locks/" + test.group(1) + ".java")),
                "the recipe runs the user-side module's test class");
    }
}
