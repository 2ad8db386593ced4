package dev.redlock;


import dev.redlock.testing.CriticalSection;
import dev.redlock.testing.RedisNodes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Several Redlock instances contend for one resource: holds never overlap and tokens strictly increase. */
class ContentionIT {
    @RegisterExtension
    static final RedisNodes REDIS = new RedisNodes(5);

    @Test
    void noOverlapAndIncreasingTokens() throws Exception {
        int clients = 4;
        int perClient = 15;
        CriticalSection section = new CriticalSection();
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        List<Redlock> redlocks = new ArrayList<>();
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                Redlock r = Redlock.create(REDIS.config().retryCount(500).retryDelay(Duration.ofMillis(5))
                        .retryJitter(Duration.ofMillis(5)).build());
                redlocks.add(r);
                futures.add(pool.submit(() -> {
                    for (int i = 0; i < perClient; i++) {
                        try (Lease lease = r.acquire("contended", Duration.ofSeconds(5))) {
                            section.hold(lease, 2);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) f.get(60, TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
            redlocks.forEach(Redlock::close);
        }
        section.assertExclusiveWithIncreasingTokens(clients * perClient);
    }
}
