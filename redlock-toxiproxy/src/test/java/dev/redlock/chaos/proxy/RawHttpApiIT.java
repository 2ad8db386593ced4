package dev.redlock.chaos.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The wire format, seen by a plain HTTP client: status codes toxiproxy-java hides (201, 204), JSON error bodies,
 * case-insensitive keys, type checks, {@code /populate} and the sorted {@code GET /proxies}.
 */
class RawHttpApiIT {

    private static final String NOWHERE = "127.0.0.1:9";

    private final ToxiproxyServer server = ToxiproxyServer.start("127.0.0.1", 0);
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @AfterEach
    void tearDown() {
        server.close();
    }

    @Test
    void everyEndpointAnswersWithItsStatus() throws Exception {
        assertEquals("http://127.0.0.1:" + server.port(), server.url());

        HttpResponse<String> created = send("POST", "/proxies", "{\"name\":\"web\",\"upstream\":\"" + NOWHERE + "\"}");
        assertEquals(201, created.statusCode());
        JsonObject proxy = object(created);
        assertEquals(List.of("name", "listen", "upstream", "enabled", "toxics"), List.copyOf(proxy.keySet()));
        assertTrue(proxy.get("listen").getAsString().startsWith("127.0.0.1:"), "default listen is loopback");
        assertEquals(new JsonArray(), proxy.get("toxics"));

        assertEquals(200, send("GET", "/proxies", null).statusCode());
        assertEquals(200, send("GET", "/proxies/web", null).statusCode());
        assertFalse(object(send("POST", "/proxies/web", "{\"enabled\":false}")).get("enabled").getAsBoolean());
        assertTrue(object(send("PATCH", "/proxies/web", "{\"enabled\":true}")).get("enabled").getAsBoolean());

        HttpResponse<String> toxicCreated = send("POST", "/proxies/web/toxics", "{\"type\":\"latency\"}");
        assertEquals(200, toxicCreated.statusCode(), "toxic creation is 200, not 201");
        JsonObject toxic = object(toxicCreated);
        assertEquals("latency_downstream", toxic.get("name").getAsString(), "default name is <type>_<stream>");
        assertEquals("downstream", toxic.get("stream").getAsString());
        assertEquals(1.0, toxic.get("toxicity").getAsDouble());
        assertEquals(JsonParser.parseString("{\"latency\":0,\"jitter\":0}"), toxic.get("attributes"),
                "every attribute present, zeros included");

        assertEquals(1, JsonParser.parseString(send("GET", "/proxies/web/toxics", null).body()).getAsJsonArray()
                .size());
        assertEquals(200, send("GET", "/proxies/web/toxics/latency_downstream", null).statusCode());
        JsonObject updated = object(send("POST", "/proxies/web/toxics/latency_downstream",
                "{\"attributes\":{\"jitter\":3},\"toxicity\":0.25}"));
        assertEquals(JsonParser.parseString("{\"latency\":0,\"jitter\":3}"), updated.get("attributes"));
        assertEquals(0.25, updated.get("toxicity").getAsDouble());

        HttpResponse<String> toxicDeleted = send("DELETE", "/proxies/web/toxics/latency_downstream", null);
        assertEquals(204, toxicDeleted.statusCode());
        assertEquals("", toxicDeleted.body());
        assertEquals(204, send("POST", "/reset", null).statusCode());
        assertEquals(204, send("DELETE", "/proxies/web", null).statusCode());

        HttpResponse<String> version = send("GET", "/version", null);
        assertEquals(200, version.statusCode());
        assertEquals(ControlApi.VERSION, object(version).get("version").getAsString());
    }

    @Test
    void everyErrorIsJsonWithItsStatus() throws Exception {
        send("POST", "/proxies", "{\"name\":\"web\",\"upstream\":\"" + NOWHERE + "\"}");
        send("POST", "/proxies/web/toxics", "{\"name\":\"t\",\"type\":\"timeout\"}");

        assertError(send("GET", "/proxies/nope", null), 404, "proxy not found");
        assertError(send("DELETE", "/proxies/nope", null), 404, "proxy not found");
        assertError(send("GET", "/proxies/nope/toxics", null), 404, "proxy not found");
        assertError(send("GET", "/proxies/web/toxics/nope", null), 404, "toxic not found");
        assertError(send("POST", "/proxies/web/toxics/nope", "{}"), 404, "toxic not found");
        assertError(send("DELETE", "/proxies/web/toxics/nope", null), 404, "toxic not found");
        assertError(send("POST", "/proxies", "{\"name\":\"web\",\"upstream\":\"" + NOWHERE + "\"}"), 409,
                "proxy already exists");
        assertError(send("POST", "/proxies/web/toxics", "{\"name\":\"t\",\"type\":\"latency\",\"stream\":\"upstream\"}"),
                409, "toxic already exists");
        assertError(send("POST", "/proxies/web/toxics", "{\"type\":\"latency\",\"stream\":\"sideways\"}"), 400,
                "stream was invalid, can be either upstream or downstream");
        assertError(send("POST", "/proxies/web/toxics", "{\"type\":\"poison\"}"), 400, "invalid toxic type");
        assertError(send("POST", "/proxies/web/toxics", "{}"), 400, "invalid toxic type");
        assertError(send("POST", "/proxies", "{\"upstream\":\"" + NOWHERE + "\"}"), 400,
                "missing required field: name");
        assertError(send("POST", "/proxies", "{\"name\":\"x\"}"), 400, "missing required field: upstream");
        assertError(send("POST", "/proxies", "{\"name\":\"x\",\"upstream\":\"no-port\"}"), 400,
                "bad request body: upstream must be host:port");
        assertError(send("POST", "/proxies", "{not json"), 400, "bad request body: invalid JSON");
        assertError(send("POST", "/proxies", ""), 400, "bad request body: EOF");
        assertError(send("POST", "/proxies", "[]"), 400, "bad request body: body must be a JSON object");
        assertError(send("GET", "/nowhere", null), 404, "not found");
        assertError(send("PUT", "/proxies", "{}"), 405, "method not allowed");
    }

    @Test
    void keysAreCaseInsensitiveAndUnknownFieldsIgnoredWhateverTheContentType() throws Exception {
        HttpResponse<String> created = send("POST", "/proxies",
                "{\"NAME\":\"ci\",\"Listen\":\"127.0.0.1:0\",\"UpStream\":\"" + NOWHERE + "\",\"ENABLED\":false,"
                        + "\"colour\":\"blue\"}");
        assertEquals(201, created.statusCode(), created.body());
        JsonObject proxy = object(created);
        assertEquals("ci", proxy.get("name").getAsString());
        assertEquals(NOWHERE, proxy.get("upstream").getAsString());
        assertFalse(proxy.get("enabled").getAsBoolean());

        JsonObject toxic = object(send("POST", "/proxies/ci/toxics",
                "{\"Type\":\"slicer\",\"STREAM\":\"UPSTREAM\",\"Attributes\":{\"AVERAGE_SIZE\":64},\"extra\":[1]}"));
        assertEquals("slicer_upstream", toxic.get("name").getAsString());
        assertEquals("upstream", toxic.get("stream").getAsString());
        assertEquals(JsonParser.parseString("{\"average_size\":64,\"size_variation\":0,\"delay\":0}"),
                toxic.get("attributes"));
    }

    @Test
    void wrongJsonTypesAreBadRequestsWithJsonBodies() throws Exception {
        send("POST", "/proxies", "{\"name\":\"web\",\"upstream\":\"" + NOWHERE + "\"}");
        send("POST", "/proxies/web/toxics", "{\"name\":\"lat\",\"type\":\"latency\"}");

        assertError(send("POST", "/proxies", "{\"name\":5,\"upstream\":\"" + NOWHERE + "\"}"), 400,
                "bad request body: field name must be a string, got 5");
        assertError(send("POST", "/proxies", "{\"name\":\"y\",\"upstream\":\"" + NOWHERE + "\",\"enabled\":\"yes\"}"),
                400, "bad request body: field enabled must be a boolean");
        assertError(send("POST", "/proxies/web", "{\"listen\":[1]}"), 400, "bad request body: field listen");
        assertError(send("POST", "/proxies/web/toxics", "{\"type\":\"latency\",\"attributes\":{\"latency\":\"fast\"}}"),
                400, "bad request body: field attributes.latency must be an integer");
        assertError(send("POST", "/proxies/web/toxics", "{\"type\":\"latency\",\"attributes\":[]}"),
                400, "bad request body: field attributes must be an object");
        assertError(send("POST", "/proxies/web/toxics/lat", "{\"toxicity\":\"high\"}"), 400,
                "bad request body: field toxicity must be a number");
        assertError(send("POST", "/proxies/web/toxics/lat", "{\"attributes\":{\"latency\":1.5}}"), 400,
                "bad request body: field attributes.latency must be an integer");
        assertError(send("POST", "/proxies/web/toxics/lat", "{\"attributes\":{\"latency\":-1}}"), 400,
                "bad request body: attributes.latency must be >= 0");
        assertError(send("POST", "/proxies/web/toxics/lat", "{\"toxicity\":2}"), 400,
                "bad request body: toxicity must be within [0, 1]");
        assertEquals(0, object(send("GET", "/proxies/web/toxics/lat", null)).getAsJsonObject("attributes")
                .get("latency").getAsLong(), "rejected updates change nothing");
    }

    @Test
    void populateCreatesKeepsIdenticalAndReplacesDifferingProxies() throws Exception {
        HttpResponse<String> first = send("POST", "/populate", "[{\"name\":\"one\",\"upstream\":\"" + NOWHERE
                + "\"},{\"name\":\"two\",\"listen\":\"127.0.0.1:0\",\"upstream\":\"" + NOWHERE + "\"}]");
        assertEquals(201, first.statusCode(), first.body());
        JsonArray proxies = object(first).getAsJsonArray("proxies");
        assertEquals(2, proxies.size());
        String oneListen = proxies.get(0).getAsJsonObject().get("listen").getAsString();
        String twoListen = proxies.get(1).getAsJsonObject().get("listen").getAsString();
        send("POST", "/proxies/one/toxics", "{\"type\":\"latency\"}");
        send("POST", "/proxies/two/toxics", "{\"type\":\"latency\"}");

        HttpResponse<String> again = send("POST", "/populate", "[{\"name\":\"one\",\"listen\":\"" + oneListen
                + "\",\"upstream\":\"" + NOWHERE + "\"},{\"name\":\"two\",\"listen\":\"" + twoListen
                + "\",\"upstream\":\"127.0.0.1:10\"}]");
        assertEquals(201, again.statusCode(), again.body());
        JsonObject one = object(send("GET", "/proxies/one", null));
        JsonObject two = object(send("GET", "/proxies/two", null));
        assertEquals(1, one.getAsJsonArray("toxics").size(), "identical proxy left alone, toxics and all");
        assertEquals(0, two.getAsJsonArray("toxics").size(), "differing proxy replaced");
        assertEquals("127.0.0.1:10", two.get("upstream").getAsString());
        assertEquals(twoListen, two.get("listen").getAsString());

        HttpResponse<String> bad = send("POST", "/populate", "[{\"name\":\"three\",\"upstream\":\"" + NOWHERE
                + "\"},{\"name\":\"four\"}]");
        assertError(bad, 400, "missing required field: upstream at proxy 2");
        assertError(send("GET", "/proxies/three", null), 404, "proxy not found");
        assertError(send("POST", "/populate", "[{\"name\":\"x\",\"upstream\":\"" + NOWHERE + "\",\"enabled\":1}]"),
                400, "bad request body: field enabled must be a boolean, got 1 at proxy 1");
        assertError(send("POST", "/populate", "{\"name\":\"x\"}"), 400, "bad request body: populate expects");
    }

    @Test
    void proxiesAreListedWithSortedKeys() throws Exception {
        for (String name : List.of("zeta", "alpha", "mid", "Beta")) {
            assertEquals(201, send("POST", "/proxies",
                    "{\"name\":\"" + name + "\",\"upstream\":\"" + NOWHERE + "\"}").statusCode());
        }
        String body = send("GET", "/proxies", null).body();
        JsonObject listed = JsonParser.parseString(body).getAsJsonObject();
        assertEquals(List.of("Beta", "alpha", "mid", "zeta"), List.copyOf(listed.keySet()), body);
        assertTrue(body.indexOf("\"alpha\":") < body.indexOf("\"mid\":"));
        assertNotEquals(listed.getAsJsonObject("alpha").get("listen"), listed.getAsJsonObject("mid").get("listen"));
    }

    private HttpResponse<String> send(String method, String path, String body) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(server.url() + path))
                .timeout(Duration.ofSeconds(5))
                .header("Content-Type", "application/x-www-form-urlencoded") // what toxiproxy-java sends
                .method(method, body == null ? BodyPublishers.noBody() : BodyPublishers.ofString(body))
                .build();
        return http.send(request, BodyHandlers.ofString());
    }

    private static JsonObject object(HttpResponse<String> response) {
        JsonElement json = JsonParser.parseString(response.body());
        assertTrue(json.isJsonObject(), response.body());
        return json.getAsJsonObject();
    }

    private static void assertError(HttpResponse<String> response, int status, String messagePrefix) {
        assertEquals(status, response.statusCode(), response.body());
        assertTrue(response.headers().firstValue("Content-Type").orElse("").startsWith("application/json"));
        JsonObject body = object(response);
        assertEquals(status, body.get("status").getAsInt(), response.body());
        assertTrue(body.get("error").getAsString().startsWith(messagePrefix), response.body());
    }
}
