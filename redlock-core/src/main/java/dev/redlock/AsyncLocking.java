package dev.redlock;

import dev.redlock.internal.Failures;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * {@link Redlock#withLockAsync}: acquire, keep alive while the task's stage runs, release when it completes. The
 * returned future is completed by whichever comes first: the stage (after the release), the loss (at once, with a
 * {@link LeaseLostException}), or its caller's cancellation (which cancels the acquisition or releases the lease).
 */
final class AsyncLocking {
    private AsyncLocking() {}

    static <T> CompletableFuture<T> withLock(Redlock redlock, String resource, Duration ttl,
                                             Function<Lease, ? extends CompletionStage<T>> task) {
        Objects.requireNonNull(task, "task");
        CompletableFuture<Lease> acquisition = redlock.acquireAsync(resource, ttl);   // bad arguments throw here
        CompletableFuture<T> out = new CompletableFuture<>();
        // however out ends (cancelled, lost, done): no acquisition goes on and no lease stays held
        out.whenComplete((v, e) -> {
            if (!acquisition.cancel(false) && !acquisition.isCompletedExceptionally()) acquisition.join().releaseAsync();
        });
        // the task runs on the default async executor, never on the I/O thread that completed the acquisition
        acquisition.whenCompleteAsync((lease, e) -> {
            if (e != null) {
                out.completeExceptionally(Failures.unwrap(e));
            } else if (!out.isDone()) {
                run((HeldLease) lease, task, out);
            }
        });
        return out;
    }

    private static <T> void run(HeldLease lease, Function<Lease, ? extends CompletionStage<T>> task, CompletableFuture<T> out) {
        lease.keepAlive();
        lease.whenLost().thenRun(() -> out.completeExceptionally(lost(lease, "while the task's stage ran")));
        CompletionStage<T> stage;
        try {
            stage = Objects.requireNonNull(task.apply(lease), "the task returned null instead of a CompletionStage");
        } catch (Throwable t) {
            lease.releaseAsync().whenComplete((x, y) -> out.completeExceptionally(t));
            return;
        }
        stage.whenComplete((value, error) -> {
            // read before the release, which ends the lease either way
            LeaseLostException lost = lease.isLost() ? lost(lease, "before the task's stage completed") : null;
            lease.releaseAsync().whenComplete((x, y) -> {
                if (lost != null) out.completeExceptionally(lost);
                else if (error != null) out.completeExceptionally(Failures.unwrap(error));
                else out.complete(value);
            });
        });
    }

    private static LeaseLostException lost(HeldLease lease, String when) {
        return new LeaseLostException(lease.resource(), lease.lostReason() + " " + when);
    }
}
