package dev.redlock.examples.async;

import dev.redlock.Lease;
import dev.redlock.LeaseLostException;
import dev.redlock.Redlock;
import dev.redlock.RedlockConfig;
import dev.redlock.examples.support.ExampleNodes;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Async locking without a thread per holder: {@link Redlock#withLockAsync} keeps the lease alive while a job's
 * {@code CompletableFuture} runs, and {@code maxHold} ends a job that never finishes.
 *
 * <ol>
 *   <li>A report job takes 1.5 s under a 500 ms lease: three TTLs. The watchdog extends it meanwhile; the returned
 *       future completes with the report after the lease was released.</li>
 *   <li>A stuck job's future never completes. With {@code maxHold(2s)} the lease is lost 2 s after its acquire: the
 *       returned future fails with a {@link LeaseLostException} at once, the job is told through
 *       {@link Lease#whenLost()} and stops, and the lock is free for the next holder.</li>
 * </ol>
 *
 * <p>Run: {@code mvn -q -B exec:java -pl redlock-examples -Dexec.mainClass=dev.redlock.examples.async.AsyncJobsExample
 * [-Dexec.args="--nodes redis://...,..."]}. Tested by {@code AsyncJobsExampleIT}.
 */
public final class AsyncJobsExample {
    public static final Duration TTL = Duration.ofMillis(500);
    public static final Duration MAX_HOLD = Duration.ofSeconds(2);

    private AsyncJobsExample() {}

    /** What the two jobs did. */
    public record Outcome(String report, String stuckFailure, boolean stuckJobToldOfTheLoss, long stuckHeldMs,
                          boolean freeAfterwards) {}

    public static void main(String[] args) throws Exception {
        try (ExampleNodes nodes = ExampleNodes.fromArgs(args, 3)) {
            RedlockConfig config = config(nodes);
            if (nodes.markFresh()) {
                try (Redlock admin = Redlock.create(config)) {
                    admin.markNodesFresh();
                }
            }
            Outcome o = run(config);
            System.out.println("report job:  " + o.report());
            System.out.println("stuck job:   failed after " + o.stuckHeldMs() + " ms with " + o.stuckFailure());
            System.out.println("             told of the loss: " + o.stuckJobToldOfTheLoss() + "; lock free afterwards: "
                    + o.freeAfterwards());
        }
    }

    /** The nodes, with the cap on how long auto-extension keeps a lease. */
    public static RedlockConfig config(ExampleNodes nodes) {
        return RedlockConfig.builder().nodes(nodes.uris()).maxHold(MAX_HOLD).build();
    }

    public static Outcome run(RedlockConfig config) throws Exception {
        ExecutorService workers = Executors.newFixedThreadPool(2);
        try (Redlock redlock = Redlock.create(config)) {
            // 1. a job longer than its TTL: kept alive while the future runs, released when it completes
            CompletableFuture<String> report = redlock.withLockAsync("report:daily", TTL,
                    lease -> CompletableFuture.supplyAsync(() -> {
                        sleep(1500);                                  // three TTLs
                        lease.checkValid();                           // still ours: the watchdog extended it
                        return "built under token " + lease.fencingToken();
                    }, workers));

            // 2. a job that never finishes: maxHold ends its lease, the job is told and stops
            CompletableFuture<Boolean> toldOfTheLoss = new CompletableFuture<>();
            long start = System.nanoTime();
            CompletableFuture<Void> stuck = redlock.withLockAsync("import:nightly", TTL, lease -> {
                lease.whenLost().thenRun(() -> toldOfTheLoss.complete(true));   // stop the work here
                return new CompletableFuture<Void>();                          // never completes
            });
            String failure;
            try {
                stuck.join();
                failure = "nothing";
            } catch (CompletionException e) {
                failure = e.getCause().getClass().getSimpleName() + ": " + e.getCause().getMessage();
            }
            long heldMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            boolean told = toldOfTheLoss.get(5, TimeUnit.SECONDS);
            boolean free = redlock.tryAcquire("import:nightly", TTL).map(l -> {
                l.release();
                return true;
            }).orElse(false);
            return new Outcome(report.join(), failure, told, heldMs, free);
        } finally {
            workers.shutdownNow();
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
