package dev.redlock.redisson;

import dev.redlock.Redlock;
import dev.redlock.RedlockConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.redisson.api.RedissonClient;

/**
 * A {@link Redlock} over {@link RedissonClient}s the application already manages, one per independent Redis master.
 * This replaces {@code Redlock.create(RedlockConfig, List<RedissonClient>)}, which lived in {@code redlock-core}
 * until the core got its own transport.
 *
 * <p>What it guarantees: the same algorithm, guarantees and exceptions as {@link Redlock#create(RedlockConfig)}; the
 * library enforces {@code nodeTimeout} itself. What it does not: the clients are not shut down by
 * {@link Redlock#close()}; a command Redisson retries or queues is outside the library's control (give the clients
 * {@code retryAttempts=0} and a timeout well above {@code nodeTimeout}, so a grant that lands after its vote timed out
 * is still seen and released); the {@code run_id} binding of the core transport is not available (Redisson picks a
 * pooled connection per command). Thread-safe.
 */
public final class RedissonRedlock {
    private RedissonRedlock() {}

    /**
     * Uses {@code clients}, one per node, in the order of {@code config.nodes()} (the URIs in the config name the
     * nodes in messages; the clients decide where commands go).
     *
     * @throws IllegalArgumentException when the number of clients differs from the number of nodes, or a client was
     *                                  not made by {@code Redisson.create}
     */
    public static Redlock create(RedlockConfig config, List<RedissonClient> clients) {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(clients, "clients");
        if (clients.size() != config.nodes().size()) {
            throw new IllegalArgumentException("clients must have one client per node (N=" + config.nodes().size()
                    + "), got " + clients.size());
        }
        List<RedissonNodeTransport> transports = new ArrayList<>(clients.size());
        for (int i = 0; i < clients.size(); i++) {
            transports.add(new RedissonNodeTransport(Objects.requireNonNull(clients.get(i), "clients[" + i + "]")));
        }
        return Redlock.create(config, transports);
    }
}
