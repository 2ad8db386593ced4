package dev.redlock.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.Lease;
import dev.redlock.LockUnavailableException;
import dev.redlock.Redlock;
import dev.redlock.RedlockConfig;
import dev.redlock.spi.NodeTransport;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The second fencing phase is bounded by the lease's validity, not by one node timeout: fence-write replies slower
 * than the node timeout but inside the validity still confirm the token, and a confirmation that arrives only after
 * the validity ended is never trusted (no lease, our owner value released). The fence-write replies are held back
 * by a transport wrapper; the nodes are simulated, the client is the real one.
 */
class FencePhaseDeadlineTest {
    private static final String RESOURCE = "fenced";
    private static final long HIGH_FENCE = 9_000_000_000_000_000L;   // above any clock-based guess: forces phase two

    private final SimScheduler time = new SimScheduler(7);
    private final SimNetwork net = new SimNetwork(time);
    private final List<SimNode> nodes = new ArrayList<>();
    private final List<SlowFenceWrites> transports = new ArrayList<>();
    private final List<String> uris = new ArrayList<>();
    private final AtomicBoolean stop = new AtomicBoolean();
    private Thread driver;

    @BeforeEach
    void start() throws Exception {
        SimClient client = net.client("app");
        for (int i = 0; i < 3; i++) {
            SimNode n = net.attach(SimNode.builder(time, "n" + i).epochMicros(System.currentTimeMillis() * 1000).build());
            nodes.add(n);
            transports.add(new SlowFenceWrites(client.transport(n)));
            uris.add("redis://n" + i + ":6379");
        }
        long realStart = System.nanoTime();
        driver = new Thread(() -> {   // virtual time keeps pace with real time, as the client's timers do
            while (!stop.get()) {
                time.runUntil(System.nanoTime() - realStart);
                Thread.onSpinWait();
            }
        }, "sim-driver");
        driver.start();
        for (SlowFenceWrites t : transports) {
            t.inner.command("SET", "redlock:__fence:" + RESOURCE, Long.toString(HIGH_FENCE), "PX", "600000")
                    .get(10, TimeUnit.SECONDS);
        }
    }

    @AfterEach
    void stop() throws InterruptedException {
        stop.set(true);
        driver.join();
        assertEquals(List.of(), time.failures());
    }

    private Redlock redlock() {
        return Redlock.create(RedlockConfig.builder().nodes(uris).nodeTimeout(Duration.ofMillis(100)).retryCount(0)
                .restartQuarantine(Duration.ZERO).build(), transports);
    }

    @Test
    void fenceWritesSlowerThanTheNodeTimeoutStillConfirmInsideTheValidity() throws Exception {
        for (SlowFenceWrites t : transports) t.delayMs = 400;   // 4 node timeouts, well inside a 30 s validity
        try (Redlock redlock = redlock()) {
            Lease lease = redlock.acquire(RESOURCE, Duration.ofSeconds(30));
            assertEquals(HIGH_FENCE + 1, lease.fencingToken(), "the second phase wrote max + 1");
            int written = transports.stream().mapToInt(t -> t.fenceWrites.get()).sum();
            assertTrue(written >= 2, "a quorum of granted nodes got the (slow) fence write: " + written);
            lease.release();
        }
    }

    @Test
    void aFenceConfirmedOnlyAfterTheValidityEndedIsNotTrusted() throws Exception {
        for (SlowFenceWrites t : transports) t.delayMs = 1_500;   // the lease's validity is under 1 s
        try (Redlock redlock = redlock()) {
            LockUnavailableException e = assertThrows(LockUnavailableException.class,
                    () -> redlock.acquire(RESOURCE, Duration.ofSeconds(1)));
            assertTrue(e.getMessage().contains("fenc") || e.getMessage().contains("validity"), e.getMessage());
            for (SlowFenceWrites t : transports) t.delayMs = 0;
            // the failed round releases our owner value on every node (asynchronously): nothing is left behind
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (lockKeysLeft() > 0 && System.nanoTime() < until) Thread.sleep(10);
            assertEquals(0, lockKeysLeft(), "lock keys left behind by the failed round");
            Lease next = redlock.acquire(RESOURCE, Duration.ofSeconds(30));
            assertTrue(next.fencingToken() > HIGH_FENCE, "token " + next.fencingToken());
            next.release();
        }
    }

    private int lockKeysLeft() throws Exception {
        int n = 0;
        for (SlowFenceWrites t : transports) {
            n += ((Number) t.inner.command("EXISTS", "redlock:" + RESOURCE).get(10, TimeUnit.SECONDS)).intValue();
        }
        return n;
    }

    /** Holds back the reply to every fence-write script by {@code delayMs}; everything else passes through. */
    private static final class SlowFenceWrites implements NodeTransport {
        private static final String WRITE_FENCE = LibraryScripts.source("WRITE_FENCE");
        private static final String WRITE_FENCE_SHA = sha1(WRITE_FENCE);
        final SimTransport inner;
        final AtomicInteger fenceWrites = new AtomicInteger();
        volatile long delayMs;

        SlowFenceWrites(SimTransport inner) {
            this.inner = inner;
        }

        @Override
        public CompletableFuture<Object> command(String... args) {
            CompletableFuture<Object> reply = inner.command(args);
            boolean fenceWrite = args.length > 1 && (WRITE_FENCE_SHA.equalsIgnoreCase(args[1]) || WRITE_FENCE.equals(args[1]));
            if (!fenceWrite || delayMs == 0) return reply;
            fenceWrites.incrementAndGet();
            Executor later = CompletableFuture.delayedExecutor(delayMs, TimeUnit.MILLISECONDS);
            CompletableFuture<Object> slow = new CompletableFuture<>();
            reply.whenComplete((r, e) -> later.execute(() -> {
                if (e != null) slow.completeExceptionally(e);
                else slow.complete(r);
            }));
            return slow;
        }

        @Override
        public CompletableFuture<Void> subscribe(String channel, Consumer<String> listener) {
            return inner.subscribe(channel, listener);
        }

        @Override
        public void unsubscribe(String channel, Consumer<String> listener) {
            inner.unsubscribe(channel, listener);
        }

        @Override
        public void close() {
            inner.close();
        }

        private static String sha1(String s) {
            try {
                return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(s.getBytes(StandardCharsets.UTF_8)));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
