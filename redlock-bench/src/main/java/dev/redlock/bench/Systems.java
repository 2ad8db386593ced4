package dev.redlock.bench;

import dev.redlock.Lease;
import dev.redlock.LockAttempt;
import dev.redlock.LockUnavailableException;
import dev.redlock.Redlock;
import dev.redlock.RedlockConfig;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.redisson.Redisson;
import org.redisson.RedissonRedLock;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/** The lock systems compared by the bench, each configured like-for-like (same nodes, node timeout, TTL). */
final class Systems {
    private Systems() {}

    /** The configuration every redlock system shares: the bench's nodes and node timeout. */
    private static RedlockConfig.Builder config(List<String> uris, boolean fencing, int nodeTimeoutMs) {
        return RedlockConfig.builder().nodes(uris).fencing(fencing).nodeTimeout(Duration.ofMillis(nodeTimeoutMs));
    }

    /** redlock with its own transport (one multiplexed connection per node, one I/O thread per Redlock instance). */
    static LockSystem redlock(String name, List<String> uris, boolean fencing, int nodeTimeoutMs, boolean contended) {
        return new LockSystem() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public LockClient newClient() {
                RedlockConfig.Builder b = config(uris, fencing, nodeTimeoutMs);
                if (contended) b.retryCount(10_000);   // W2: wait as long as it takes (wake-up or fallback poll)
                Redlock r = Redlock.create(b.build());
                return new LockClient() {
                    @Override
                    public Held acquire(String resource, long ttlMs, long waitMs) {
                        if (waitMs > 0) {
                            try {
                                Lease l = r.acquire(resource, Duration.ofMillis(ttlMs));
                                return new Held(l, fencing ? l.fencingToken() : -1);
                            } catch (LockUnavailableException e) {
                                return null;
                            }
                        }
                        // one round, as tryAcquire; a failure is thrown with its reason (the caller counts it)
                        LockAttempt a = r.attempt(resource, Duration.ofMillis(ttlMs));
                        if (!a.acquired()) throw a.failure().orElseThrow();
                        Lease l = a.lease().orElseThrow();
                        return new Held(l, fencing ? l.fencingToken() : -1);
                    }

                    @Override
                    public void release(Held held) {
                        ((Lease) held.handle()).release();
                    }

                    @Override
                    public void close() {
                        r.close();
                    }
                };
            }
        };
    }

    /**
     * redlock in W6 with asynchronous callers ({@link AsyncCallers}: {@code acquireAsync} chained with
     * {@code releaseAsync}, no thread per caller), one round per acquire like the blocking callers' tryAcquire.
     */
    static LockSystem redlockAsync(String name, List<String> uris, int nodeTimeoutMs) {
        return new LockSystem() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public LockClient newClient() {
                return new AsyncPairs(Redlock.create(config(uris, true, nodeTimeoutMs).retryCount(0).build()));
            }

            @Override
            public Contenders contenders(int clients, String resource, long ttlMs) {
                // W2: wait as long as it takes (wake-up or fallback poll), as the blocking contenders do
                return new AsyncContenders(() -> Redlock.create(config(uris, true, nodeTimeoutMs).retryCount(10_000).build()),
                        clients, resource, ttlMs);
            }

            @Override
            public Callers callers(int callers, String prefix, long ttlMs) {
                Redlock r = Redlock.create(config(uris, true, nodeTimeoutMs).retryCount(0).build());
                return new AsyncCallers(r, callers, prefix, ttlMs);
            }
        };
    }

    /**
     * Redisson's {@link RedissonRedLock} over one RLock per node, from one RedissonClient per node (the documented
     * way). Clients get the same node timeout as redlock and no retries (its best case with stalled nodes), pools
     * sized like redlock's, and share one Netty event loop group.
     */
    static LockSystem redissonRedLock(String name, List<String> uris, int nodeTimeoutMs) {
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
        ExecutorService executor = Executors.newFixedThreadPool(2);
        List<RedissonClient> made = new ArrayList<>();
        return new LockSystem() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public LockClient newClient() {
                List<RedissonClient> clients = new ArrayList<>();
                for (String uri : uris) {
                    Config c = new Config();
                    c.setEventLoopGroup(group);
                    c.setExecutor(executor);
                    c.setTcpNoDelay(true);
                    c.useSingleServer().setAddress(uri).setTimeout(nodeTimeoutMs).setRetryAttempts(0)
                            .setConnectionMinimumIdleSize(1).setConnectionPoolSize(16)
                            .setSubscriptionConnectionMinimumIdleSize(1).setSubscriptionConnectionPoolSize(4);
                    RedissonClient client = Redisson.create(c);
                    clients.add(client);
                    synchronized (made) { made.add(client); }
                }
                ConcurrentHashMap<String, RedissonRedLock> locks = new ConcurrentHashMap<>();
                return new LockClient() {
                    @Override
                    public Held acquire(String resource, long ttlMs, long waitMs) throws InterruptedException {
                        RedissonRedLock lock = locks.computeIfAbsent(resource, r -> {
                            RLock[] parts = clients.stream().map(c -> c.getLock("rrl:" + r)).toArray(RLock[]::new);
                            return new RedissonRedLock(parts);
                        });
                        boolean ok = lock.tryLock(Math.max(waitMs, 0), ttlMs, TimeUnit.MILLISECONDS);
                        return ok ? new Held(lock, -1) : null;
                    }

                    @Override
                    public void release(Held held) {
                        ((RedissonRedLock) held.handle()).unlock();
                    }

                    @Override
                    public void close() {
                        clients.forEach(c -> c.shutdown(0, 2, TimeUnit.SECONDS));
                        synchronized (made) { made.removeAll(clients); }
                    }
                };
            }

            @Override
            public void close() {
                synchronized (made) { made.forEach(c -> c.shutdown(0, 2, TimeUnit.SECONDS)); }
                group.shutdownGracefully(0, 2, TimeUnit.SECONDS);
                executor.shutdownNow();
            }
        };
    }

}
