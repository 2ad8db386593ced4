package dev.redlock.chaos.proxy;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import io.netty.channel.EventLoopGroup;
import java.io.IOException;

/**
 * A named proxy: its configuration, its toxics and, while enabled, its {@link Listener}. Configuration changes
 * are made by the control thread only; the toxics snapshot is published for the data plane through a volatile.
 */
final class ManagedProxy {

    private final String name;
    private final EventLoopGroup workers;
    private String listen;
    private String upstream;
    private Listener listener;
    private volatile ToxicSet toxics = ToxicSet.EMPTY;

    /** Both addresses must already be valid {@link HostPort} strings. */
    ManagedProxy(String name, String listen, String upstream, EventLoopGroup workers) {
        this.name = name;
        this.listen = listen;
        this.upstream = upstream;
        this.workers = workers;
    }

    String name() {
        return name;
    }

    /** The listen address: the bound one once the proxy has been enabled, else as given. */
    String listen() {
        return listen;
    }

    String upstream() {
        return upstream;
    }

    boolean enabled() {
        return listener != null;
    }

    ToxicSet toxics() {
        return toxics;
    }

    /** Publishes a new toxic set; open connections pick it up at once (asynchronously, see {@link Settlement}). */
    void setToxics(ToxicSet newToxics, Settlement settlement) {
        toxics = newToxics;
        if (listener != null) {
            listener.toxicsChanged(settlement);
        }
    }

    /** Starts listening if not already; a bind failure is a 500 and leaves the proxy disabled. */
    void start() {
        if (listener != null) {
            return;
        }
        try {
            HostPort address = HostPort.parse(listen).orElseThrow();
            HostPort target = HostPort.parse(upstream).orElseThrow();
            listener = Listener.open(this, address.resolve(), target, workers);
            listen = HostPort.format(listener.boundAddress());
        } catch (IOException e) {
            throw new ApiError(500, "listen tcp " + listen + ": " + e.getMessage());
        }
    }

    /** Stops listening and closes every connection; toxics are kept. */
    void stop(Settlement settlement) {
        if (listener != null) {
            listener.close(settlement);
            listener = null;
        }
    }

    /** True if the listen address names the current one and the upstream is unchanged. */
    boolean sameAddresses(String newListen, String newUpstream) {
        boolean sameListen = newListen.equals(listen)
                || HostPort.parse(newListen).orElseThrow().sameEndpoint(HostPort.parse(listen).orElseThrow());
        return sameListen && newUpstream.equals(upstream);
    }

    /** Applies an update: new addresses restart the proxy (dropping its connections), then enable or disable. */
    void update(String newListen, String newUpstream, boolean enable, Settlement settlement) {
        if (!sameAddresses(newListen, newUpstream)) {
            stop(settlement);
            listen = newListen;
            upstream = newUpstream;
        }
        if (enable) {
            start();
        } else {
            stop(settlement);
        }
    }

    /**
     * Harness-only, not in Toxiproxy's API: the upstream becomes {@code newUpstream} (a valid {@link HostPort}
     * string) and, while enabled, every open connection keeps its client socket and is moved to it, instead of
     * being dropped as {@link #update} does. A proxy in front of a failed-over master that keeps client
     * connections behaves so.
     */
    void switchUpstream(String newUpstream, Settlement settlement) {
        upstream = newUpstream;
        if (listener != null) {
            listener.switchUpstream(HostPort.parse(newUpstream).orElseThrow(), settlement);
        }
    }

    JsonObject toJson() {
        JsonObject json = new JsonObject();
        json.addProperty("name", name);
        json.addProperty("listen", listen);
        json.addProperty("upstream", upstream);
        json.addProperty("enabled", enabled());
        JsonArray list = new JsonArray();
        toxics.all().forEach(t -> list.add(t.toJson()));
        json.add("toxics", list);
        return json;
    }
}
