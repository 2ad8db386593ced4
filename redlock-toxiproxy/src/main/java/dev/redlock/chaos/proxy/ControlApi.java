package dev.redlock.chaos.proxy;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.netty.channel.EventLoopGroup;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The Toxiproxy HTTP API as plain method calls: a method, decoded path segments and a body in, a status and JSON
 * out. Every failure, expected or not, comes back as {@code {"error":"...","status":N}}.
 *
 * <p>Not thread-safe: the server calls it from its single control thread only. Nothing here waits for the data
 * plane; connections are told about changes through tasks posted to their event loops, collected in the
 * response's {@link Settlement} so the HTTP layer can answer once they have run.
 */
final class ControlApi {

    static final String VERSION = "2.12.0";
    private static final String DEFAULT_LISTEN = "127.0.0.1:0";

    /**
     * A status, an optional JSON body ({@code null} for 204), and the data-plane work to wait for before
     * answering.
     */
    record Response(int status, JsonElement body, Settlement settlement) {
        Response(int status, JsonElement body) {
            this(status, body, new Settlement());
        }
    }

    private final Map<String, ManagedProxy> proxies = new TreeMap<>();
    private final EventLoopGroup workers;
    private long nextToxicId;
    private Settlement settlement = new Settlement();

    ControlApi(EventLoopGroup workers) {
        this.workers = workers;
    }

    Response handle(String method, List<String> path, String body) {
        settlement = new Settlement();
        Response response;
        try {
            response = route(method, path, body);
        } catch (ApiError e) {
            response = new Response(e.status(), e.toJson());
        } catch (RuntimeException e) {
            response = new Response(500, new ApiError(500, "internal error: " + e).toJson());
        }
        return new Response(response.status(), response.body(), settlement);
    }

    /** Stops every proxy and forgets them (server shutdown). */
    void shutdown() {
        Settlement ignored = new Settlement(); // the event loops are shut down next, closing every socket
        proxies.values().forEach(p -> p.stop(ignored));
        proxies.clear();
    }

    private Response route(String method, List<String> path, String body) {
        int n = path.size();
        String root = n == 0 ? "" : path.get(0);
        boolean get = method.equals("GET");
        boolean post = method.equals("POST");
        boolean update = post || method.equals("PATCH");
        boolean delete = method.equals("DELETE");
        if (n == 1 && root.equals("version")) {
            return get ? version() : notAllowed();
        }
        if (n == 1 && root.equals("reset")) {
            return post ? reset() : notAllowed();
        }
        if (n == 1 && root.equals("populate")) {
            return post ? populate(body) : notAllowed();
        }
        if (!root.equals("proxies") || n > 4 || n == 3 && !path.get(2).equals("toxics")
                || n == 4 && !path.get(2).equals("toxics")) {
            throw new ApiError(404, "not found");
        }
        if (n == 1) {
            return get ? listProxies() : post ? createProxy(body) : notAllowed();
        }
        String proxy = path.get(1);
        if (n == 2) {
            return get ? showProxy(proxy) : update ? updateProxy(proxy, body) : delete ? deleteProxy(proxy)
                    : notAllowed();
        }
        if (n == 3) {
            return get ? listToxics(proxy) : post ? createToxic(proxy, body) : notAllowed();
        }
        String toxic = path.get(3);
        return get ? showToxic(proxy, toxic) : update ? updateToxic(proxy, toxic, body)
                : delete ? deleteToxic(proxy, toxic) : notAllowed();
    }

    private Response version() {
        JsonObject json = new JsonObject();
        json.addProperty("version", VERSION);
        return ok(json);
    }

    private Response listProxies() {
        JsonObject json = new JsonObject(); // proxies is a TreeMap: keys come out sorted
        proxies.forEach((name, proxy) -> json.add(name, proxy.toJson()));
        return ok(json);
    }

    private Response createProxy(String body) {
        JsonBody json = JsonBody.object(JsonBody.parse(body), "body");
        ProxyRequest request = ProxyRequest.read(json);
        if (proxies.containsKey(request.name)) {
            throw new ApiError(409, ApiError.PROXY_EXISTS);
        }
        ManagedProxy proxy = new ManagedProxy(request.name, request.listen, request.upstream, workers);
        if (request.enabled) {
            proxy.start();
        }
        proxies.put(request.name, proxy);
        return new Response(201, proxy.toJson());
    }

    private Response populate(String body) {
        JsonElement parsed = JsonBody.parse(body);
        if (!parsed.isJsonArray()) {
            throw ApiError.badRequest("populate expects a JSON array of proxies");
        }
        List<ProxyRequest> requests = new ArrayList<>();
        JsonArray array = parsed.getAsJsonArray();
        for (int i = 0; i < array.size(); i++) {
            try {
                requests.add(ProxyRequest.read(JsonBody.object(array.get(i), "proxy")));
            } catch (ApiError e) {
                throw new ApiError(e.status(), e.getMessage() + " at proxy " + (i + 1));
            }
        }
        JsonArray done = new JsonArray();
        for (ProxyRequest request : requests) {
            ManagedProxy existing = proxies.get(request.name);
            if (existing != null && existing.sameAddresses(request.listen, request.upstream)) {
                done.add(existing.toJson());
                continue;
            }
            if (existing != null) {
                existing.stop(settlement);
                proxies.remove(request.name);
            }
            ManagedProxy proxy = new ManagedProxy(request.name, request.listen, request.upstream, workers);
            try {
                if (request.enabled) {
                    proxy.start();
                }
            } catch (ApiError e) {
                JsonObject error = e.toJson();
                error.add("proxies", done);
                return new Response(e.status(), error);
            }
            proxies.put(request.name, proxy);
            done.add(proxy.toJson());
        }
        JsonObject json = new JsonObject();
        json.add("proxies", done);
        return new Response(201, json);
    }

    private Response showProxy(String name) {
        return ok(proxy(name).toJson());
    }

    private Response updateProxy(String name, String body) {
        ManagedProxy proxy = proxy(name);
        JsonBody json = JsonBody.object(JsonBody.parse(body), "body");
        String listen = json.string("listen").filter(s -> !s.isEmpty()).orElse(proxy.listen());
        String upstream = json.string("upstream").filter(s -> !s.isEmpty()).orElse(proxy.upstream());
        boolean enabled = json.bool("enabled").orElse(proxy.enabled());
        ProxyRequest.checkAddress("listen", listen);
        ProxyRequest.checkAddress("upstream", upstream);
        proxy.update(listen, upstream, enabled, settlement);
        return ok(proxy.toJson());
    }

    /**
     * Harness-only (no HTTP route): moves proxy {@code name}'s open connections to {@code upstream}, keeping their
     * client sockets ({@link ManagedProxy#switchUpstream}). Returns the work to wait for.
     *
     * @throws ApiError 404 for an unknown proxy, 400 for a bad address
     */
    Settlement switchUpstream(String name, String upstream) {
        ProxyRequest.checkAddress("upstream", upstream);
        Settlement work = new Settlement();
        proxy(name).switchUpstream(upstream, work);
        return work;
    }

    private Response deleteProxy(String name) {
        ManagedProxy proxy = proxy(name);
        proxy.stop(settlement);
        proxies.remove(name);
        return new Response(204, null);
    }

    private Response listToxics(String name) {
        JsonArray list = new JsonArray();
        proxy(name).toxics().all().forEach(t -> list.add(t.toJson()));
        return ok(list);
    }

    private Response createToxic(String name, String body) {
        ManagedProxy proxy = proxy(name);
        JsonBody json = JsonBody.object(JsonBody.parse(body), "body");
        ToxicSet current = proxy.toxics();
        ToxicSpec toxic = ToxicSpec.create(json, ++nextToxicId, n -> current.find(n).isPresent());
        proxy.setToxics(current.plus(toxic), settlement);
        return ok(toxic.toJson());
    }

    private Response showToxic(String name, String toxic) {
        return ok(toxic(proxy(name), toxic).toJson());
    }

    private Response updateToxic(String name, String toxicName, String body) {
        ManagedProxy proxy = proxy(name);
        ToxicSpec toxic = toxic(proxy, toxicName);
        ToxicSpec updated = toxic.update(JsonBody.object(JsonBody.parse(body), "body"));
        proxy.setToxics(proxy.toxics().replacing(updated), settlement);
        return ok(updated.toJson());
    }

    private Response deleteToxic(String name, String toxicName) {
        ManagedProxy proxy = proxy(name);
        toxic(proxy, toxicName);
        proxy.setToxics(proxy.toxics().minus(toxicName), settlement);
        return new Response(204, null);
    }

    /** Enables every proxy and removes every toxic; a proxy that cannot listen again is reported as a 500. */
    private Response reset() {
        ApiError firstFailure = null;
        for (ManagedProxy proxy : proxies.values()) {
            proxy.setToxics(ToxicSet.EMPTY, settlement);
            try {
                proxy.start();
            } catch (ApiError e) {
                firstFailure = firstFailure == null ? e : firstFailure;
            }
        }
        if (firstFailure != null) {
            throw firstFailure;
        }
        return new Response(204, null);
    }

    private ManagedProxy proxy(String name) {
        ManagedProxy proxy = proxies.get(name);
        if (proxy == null) {
            throw ApiError.proxyNotFound();
        }
        return proxy;
    }

    private static ToxicSpec toxic(ManagedProxy proxy, String name) {
        return proxy.toxics().find(name).orElseThrow(ApiError::toxicNotFound);
    }

    private static Response ok(JsonElement body) {
        return new Response(200, body);
    }

    private static Response notAllowed() {
        throw new ApiError(405, "method not allowed");
    }

    /** The fields of a proxy creation ({@code POST /proxies} or one {@code /populate} entry), checked. */
    private static final class ProxyRequest {
        final String name;
        final String listen;
        final String upstream;
        final boolean enabled;

        private ProxyRequest(String name, String listen, String upstream, boolean enabled) {
            this.name = name;
            this.listen = listen;
            this.upstream = upstream;
            this.enabled = enabled;
        }

        static ProxyRequest read(JsonBody json) {
            String name = json.string("name").orElse("");
            if (name.isEmpty()) {
                throw ApiError.missingField("name");
            }
            String upstream = json.string("upstream").orElse("");
            if (upstream.isEmpty()) {
                throw ApiError.missingField("upstream");
            }
            String listen = json.string("listen").filter(s -> !s.isEmpty()).orElse(DEFAULT_LISTEN);
            boolean enabled = json.bool("enabled").orElse(true);
            checkAddress("listen", listen);
            checkAddress("upstream", upstream);
            return new ProxyRequest(name, listen, upstream, enabled);
        }

        static void checkAddress(String field, String value) {
            if (HostPort.parse(value).isEmpty()) {
                throw ApiError.badRequest(field + " must be host:port, got \"" + value + "\"");
            }
        }
    }
}
