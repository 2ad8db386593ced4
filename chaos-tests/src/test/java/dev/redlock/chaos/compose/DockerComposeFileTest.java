package dev.redlock.chaos.compose;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;

/**
 * docker-compose.redlock.yml cannot be started here (no Docker engine), so this checks what can be checked without
 * one: it is valid YAML, declares five Redis masters and one Toxiproxy, and the proxies of the populate file listen on
 * exactly the ports that are published and point at the declared Redis services, as the chaos CLI's documented
 * {@code --nodes} / {@code --toxiproxy} arguments expect.
 */
class DockerComposeFileTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @SuppressWarnings("unchecked")
    private static Map<String, Object> compose() throws IOException {
        LoaderOptions options = new LoaderOptions();
        options.setMaxAliasesForCollections(50);
        return (Map<String, Object>) new Yaml(options).load(Files.readString(ROOT.resolve("docker-compose.redlock.yml")));
    }

    @Test
    @SuppressWarnings("unchecked")
    void declaresFiveRedisMastersAndToxiproxy() throws IOException {
        Map<String, Object> services = (Map<String, Object>) compose().get("services");
        TreeSet<String> redis = new TreeSet<>();
        for (Map.Entry<String, Object> e : services.entrySet()) {
            Map<String, Object> svc = (Map<String, Object>) e.getValue();
            String image = (String) svc.get("image");
            if (image.startsWith("redis:")) {
                redis.add(e.getKey());
                List<String> command = (List<String>) svc.get("command");
                assertTrue(command.contains("redis-server"), e.getKey() + " must run redis-server");
                assertTrue(!svc.containsKey("ports"), e.getKey() + " must be reachable only through Toxiproxy");
            }
        }
        assertEquals(new TreeSet<>(List.of("redis1", "redis2", "redis3", "redis4", "redis5")), redis);
        Map<String, Object> toxiproxy = (Map<String, Object>) services.get("toxiproxy");
        assertTrue(((String) toxiproxy.get("image")).startsWith("ghcr.io/shopify/toxiproxy"));
        List<String> ports = (List<String>) toxiproxy.get("ports");
        assertTrue(ports.contains("127.0.0.1:8474:8474"), "Toxiproxy API must be published on 8474: " + ports);
    }

    @Test
    @SuppressWarnings("unchecked")
    void populateFileMatchesPublishedPortsAndServices() throws IOException {
        Map<String, Object> services = (Map<String, Object>) compose().get("services");
        Map<String, Object> toxiproxy = (Map<String, Object>) services.get("toxiproxy");
        List<String> volumes = (List<String>) toxiproxy.get("volumes");
        String hostFile = volumes.get(0).split(":")[0];
        String containerFile = volumes.get(0).split(":")[1];
        assertTrue(((List<String>) toxiproxy.get("command")).contains("-config=" + containerFile));
        JsonArray proxies = JsonParser.parseString(Files.readString(ROOT.resolve(hostFile))).getAsJsonArray();
        List<String> ports = (List<String>) toxiproxy.get("ports");
        List<String> expectedNodes = new ArrayList<>();
        int i = 1;
        for (JsonElement el : proxies) {
            JsonObject p = el.getAsJsonObject();
            assertEquals("redis" + i, p.get("name").getAsString());
            String listenPort = p.get("listen").getAsString().split(":")[1];
            assertEquals("0.0.0.0:" + listenPort, p.get("listen").getAsString());
            assertTrue(ports.contains("127.0.0.1:" + listenPort + ":" + listenPort), "port " + listenPort + " not published");
            String upstreamHost = p.get("upstream").getAsString().split(":")[0];
            assertTrue(services.containsKey(upstreamHost), "upstream " + upstreamHost + " is not a service");
            assertEquals("6379", p.get("upstream").getAsString().split(":")[1]);
            expectedNodes.add("redis://127.0.0.1:" + listenPort);
            i++;
        }
        assertEquals(5, proxies.size());
        // the compose file's usage comment is the command users copy: its --nodes must name exactly these proxies
        String text = Files.readString(ROOT.resolve("docker-compose.redlock.yml"));
        assertTrue(text.contains("--nodes " + String.join(",", expectedNodes)), "usage comment --nodes out of date");
        assertTrue(text.contains("--toxiproxy http://127.0.0.1:8474"));
    }
}
