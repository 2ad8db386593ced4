package dev.redlock.redisson;

import dev.redlock.fencing.FencedRedisStore;
import java.util.Objects;
import org.redisson.api.RedissonClient;

/**
 * {@link FencedRedisStore}s over a {@link RedissonClient} the application manages (this replaces
 * {@code FencedRedisStore.create(RedissonClient)} of the core). Values are strings whatever the client's codec; the
 * store's {@code close()} leaves the client open. Same guarantees as the store over the core transport.
 */
public final class RedissonFencedStores {
    private RedissonFencedStores() {}

    /**
     * A store over {@code client}; keys are used exactly as given.
     *
     * @throws IllegalArgumentException when the client was not made by {@code Redisson.create}
     */
    public static FencedRedisStore create(RedissonClient client) {
        return FencedRedisStore.create(new RedissonNodeTransport(Objects.requireNonNull(client, "client")));
    }
}
