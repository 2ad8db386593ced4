package dev.redlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.testing.RedisNodes;
import dev.redlock.testkit.Sleep;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Several Redlock instances contend for one resource: holds never overlap and tokens strictly increase. */
class ContentionIT {
    @RegisterExtension
    static final RedisNodes REDIS = new RedisNodes(5);

    record Hold(long token, long from, long to) {}

    @Test
    void noOverlapAndIncreasingTokens() throws Exception {
        int clients = 4;
        int perClient = 15;
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger maxInside = new AtomicInteger();
        ConcurrentLinkedQueue<Hold> holds = new ConcurrentLinkedQueue<>();
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
                            long from = System.nanoTime();
                            int now = inside.incrementAndGet();
                            maxInside.accumulateAndGet(now, Math::max);
                            Sleep.millis(2);
                            inside.decrementAndGet();
                            lease.checkValid();
                            holds.add(new Hold(lease.fencingToken(), from, System.nanoTime()));
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
        assertEquals(1, maxInside.get(), "two clients were inside the critical section at once");
        List<Hold> sorted = new ArrayList<>(holds);
        sorted.sort(Comparator.comparingLong(Hold::from));
        assertEquals(clients * perClient, sorted.size());
        for (int i = 1; i < sorted.size(); i++) {
            assertTrue(sorted.get(i).from() >= sorted.get(i - 1).to(), "holds overlap at " + i);
            assertTrue(sorted.get(i).token() > sorted.get(i - 1).token(), "token did not increase at " + i);
        }
    }
}
