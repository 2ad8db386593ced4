package dev.redlock.chaos.workload;

import dev.redlock.chaos.history.History;
import dev.redlock.testkit.Sleep;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The generic contention loop, one thread per client: acquire (seeded retry loop), read both stores, hold for a
 * small seeded delay (to widen the read-modify-write window), write if the lease is still valid, release, think.
 * Stops by itself after {@code duration}; every thread is joined before {@link #run} returns.
 */
public final class Workload {

    /**
     * @param ttl         lease TTL
     * @param duration    how long the loop runs
     * @param rmwDelay    upper bound of the seeded delay between read and write
     * @param think       upper bound of the seeded pause between operations
     * @param retryDelay  mean wait between failed rounds
     * @param retryJitter half-width of the uniform jitter around it
     */
    public record Options(Duration ttl, Duration duration, Duration rmwDelay, Duration think, Duration retryDelay,
                          Duration retryJitter) {
    }

    private Workload() {}

    /** Runs the loop on every client; {@code seed} + client id seeds each client's random choices. */
    public static void run(List<WorkloadClient> clients, Options o, long seed) {
        long end = History.now() + o.duration().toNanos();
        List<Thread> threads = new ArrayList<>();
        List<Throwable> errors = new CopyOnWriteArrayList<>();
        for (WorkloadClient c : clients) {
            Thread t = new Thread(() -> loop(c, o, end, new Random(seed * 31 + c.id())), "workload-c" + c.id());
            t.setDaemon(true);
            t.setUncaughtExceptionHandler((th, e) -> errors.add(e));
            threads.add(t);
            t.start();
        }
        long joinDeadline = end + o.ttl().toNanos() * 4 + Duration.ofSeconds(10).toNanos();
        for (Thread t : threads) {
            try {
                long left = Math.max(1, (joinDeadline - History.now()) / 1_000_000);
                t.join(left);
                if (t.isAlive()) {
                    t.interrupt();
                    errors.add(new IllegalStateException(t.getName() + " did not stop in time"));
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }
        if (!errors.isEmpty()) {
            IllegalStateException e = new IllegalStateException("workload thread failed: " + errors.get(0), errors.get(0));
            errors.stream().skip(1).forEach(e::addSuppressed);
            throw e;
        }
    }

    static void loop(WorkloadClient c, Options o, long end, Random rnd) {
        while (History.now() < end) {
            Optional<Held> got = c.acquire(o.ttl(), end, rnd, o.retryDelay(), o.retryJitter());
            if (got.isEmpty()) break;
            Held h = got.get();
            Reads r = c.read();
            pause(o.rmwDelay(), rnd);
            if (h.lease().isValid()) {
                c.write(h, r);
            } else {
                c.noteLost(h, "validity ran out before the write; not written");
            }
            c.release(h);
            pause(o.think(), rnd);
        }
    }

    private static void pause(Duration max, Random rnd) {
        long n = max.toNanos();
        if (n <= 0) return;
        Sleep.of(Duration.ofNanos((long) (rnd.nextDouble() * n)));
    }
}
