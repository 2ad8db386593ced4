package dev.redlock.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.LockUnavailableException;
import dev.redlock.MultiLease;
import dev.redlock.Redlock;
import dev.redlock.RedlockConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * {@link Redlock#acquireAll} over {@link SimTransport}s (as {@link RedlockOverSimTransportTest} does for a single
 * lease): the multi-resource scripts run in the model's Lua interpreter; all or nothing, exclusion with a single
 * lease, extension, release, tokens increasing per resource, no key left.
 */
class AcquireAllOverSimTransportTest {

    @Test
    void severalResourcesAtOnceOnSimulatedNodes() throws Exception {
        SimScheduler time = new SimScheduler(7);
        SimNetwork net = new SimNetwork(time);
        SimClient client = net.client("app");
        List<SimNode> nodes = new ArrayList<>();
        List<SimTransport> transports = new ArrayList<>();
        List<String> uris = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            SimNode n = net.attach(SimNode.builder(time, "n" + i).epochMicros(System.currentTimeMillis() * 1000).build());
            nodes.add(n);
            transports.add(client.transport(n));
            uris.add("redis://n" + i + ":6379");
        }
        AtomicBoolean stop = new AtomicBoolean();
        long realStart = System.nanoTime();
        Thread driver = new Thread(() -> {
            while (!stop.get()) {
                time.runUntil(System.nanoTime() - realStart);
                Thread.onSpinWait();
            }
        }, "sim-driver");
        driver.start();
        try (Redlock redlock = Redlock.create(RedlockConfig.builder().nodes(uris).nodeTimeout(Duration.ofSeconds(2))
                .restartQuarantine(Duration.ZERO).retryCount(0).build(), transports)) {
            Duration ttl = Duration.ofSeconds(30);
            MultiLease lease = redlock.acquireAll(List.of("orders", "stock"), ttl);
            long first = lease.fencingToken("stock");
            assertTrue(redlock.tryAcquire("stock", ttl).isEmpty(), "stock is held by the multi lease");
            LockUnavailableException e = assertThrows(LockUnavailableException.class,
                    () -> redlock.acquireAll(List.of("other", "stock"), ttl));
            assertEquals(List.of("other", "stock"), e.resources());
            lease.extend(ttl);
            lease.release();
            MultiLease again = redlock.acquireAll(List.of("stock", "other"), ttl);
            assertTrue(again.fencingToken("stock") > first, again.toString());
            again.release();
            CompletableFuture<Long> left = new CompletableFuture<>();
            time.execute(() -> {   // the nodes belong to the loop's thread: read them there
                long n = 0;
                for (SimNode node : nodes) n += node.keys().stream().filter(k -> !k.contains("__")).count();
                left.complete(n);
            });
            assertEquals(0, left.get(10, TimeUnit.SECONDS), "no lock key left");
        } finally {
            stop.set(true);
            driver.join();
        }
        assertEquals(List.of(), time.failures());
    }
}
