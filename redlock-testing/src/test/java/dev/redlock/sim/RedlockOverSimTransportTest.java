package dev.redlock.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.Lease;
import dev.redlock.Redlock;
import dev.redlock.RedlockConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * The real Redlock client over {@link SimTransport}s, today's way in (the core's public adapter factory; its timers
 * still run on real time): a background thread drives the simulation while the client's own threads send
 * commands, which the transport hands to the loop. Shows the transport meets the library's contract end to end
 * (SCRIPT LOAD-less EVALSHA, NOSCRIPT, EVAL by source, the preflight's INFO/CONFIG/TIME), not the simulation's
 * determinism (that needs the core's timers on virtual time).
 */
class RedlockOverSimTransportTest {

    @Test
    void theLibraryAcquiresAndReleasesOnSimulatedNodes() throws Exception {
        SimScheduler time = new SimScheduler(99);
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
        Thread driver = new Thread(() -> {   // virtual time keeps pace with real time, as the client's timers do
            while (!stop.get()) {
                time.runUntil(System.nanoTime() - realStart);
                Thread.onSpinWait();
            }
        }, "sim-driver");
        driver.start();
        try (Redlock redlock = Redlock.create(RedlockConfig.builder().nodes(uris).nodeTimeout(Duration.ofSeconds(2))
                .restartQuarantine(Duration.ZERO).build(), transports)) {
            Lease lease = redlock.acquire("orders", Duration.ofSeconds(30));
            CompletableFuture<Integer> count = new CompletableFuture<>();
            time.execute(() -> {   // the nodes belong to the loop's thread: read them there
                int n = 0;
                for (SimNode node : nodes) if (node.keys().stream().anyMatch(k -> k.endsWith("orders") && !k.contains("__"))) n++;
                count.complete(n);
            });
            int holding = count.get(10, TimeUnit.SECONDS);
            assertTrue(holding >= 2, "a quorum of nodes holds the key: " + holding);
            Optional<Lease> other = redlock.tryAcquire("orders", Duration.ofSeconds(30));
            assertTrue(other.isEmpty(), "held");
            lease.release();
            Optional<Lease> again = redlock.tryAcquire("orders", Duration.ofSeconds(30));
            assertTrue(again.isPresent(), "free again after the release");
            again.get().release();
        } finally {
            stop.set(true);
            driver.join();
        }
        assertEquals(List.of(), time.failures());
    }
}
