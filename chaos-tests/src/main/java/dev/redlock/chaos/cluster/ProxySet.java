package dev.redlock.chaos.cluster;

import java.util.List;

/**
 * One set of proxies, one per node: {@link #MAIN}, which every cluster has and every client uses unless it has its
 * own, or a client's own set ({@link #ofClient}), so that a fault can hit that client's path to the nodes and no
 * other client's. The {@link #name()} is part of the proxies' names on the Toxiproxy server ({@code main},
 * {@code c3}).
 *
 * @param client the client whose own set this is, or -1 for {@link #MAIN}
 */
public record ProxySet(int client) {
    /** The set every cluster has: a fault on it hits every client without its own set. */
    public static final ProxySet MAIN = new ProxySet(-1);

    public ProxySet {
        if (client < -1) throw new IllegalArgumentException("client must be >= 0 (or -1 for main), got " + client);
    }

    /** Client {@code client}'s own set. */
    public static ProxySet ofClient(int client) {
        if (client < 0) throw new IllegalArgumentException("client must be >= 0, got " + client);
        return new ProxySet(client);
    }

    public boolean isMain() {
        return client < 0;
    }

    /** {@code main}, or {@code c<client>}. */
    public String name() {
        return isMain() ? "main" : "c" + client;
    }

    /** The clients a fault on this set hits alone: this set's client, or none for {@link #MAIN} (every client). */
    public List<Integer> clients() {
        return isMain() ? List.of() : List.of(client);
    }

    @Override
    public String toString() {
        return name();
    }
}
