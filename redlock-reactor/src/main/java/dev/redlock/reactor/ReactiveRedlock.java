package dev.redlock.reactor;

import dev.redlock.Lease;
import dev.redlock.LeaseLostException;
import dev.redlock.LockUnavailableException;
import dev.redlock.Redlock;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Project Reactor API over a {@link Redlock}: {@code ReactiveRedlock.of(redlock)}. Nothing here blocks a thread, and
 * nothing is tied to a thread: a lease belongs to the subscription that got it, whichever threads it runs on.
 *
 * <ul>
 *   <li>{@link #acquire} is a cold {@code Mono<Lease>}: each subscription is one acquisition
 *       ({@link Redlock#acquireAsync}). Cancelling the subscription before the lease is emitted cancels the
 *       acquisition; a lease a round still obtains is released. The emitted lease is the subscriber's to release.</li>
 *   <li>{@link #withLock} acquires, keeps the lease alive ({@link Lease#keepAlive()}) while the body's publisher runs,
 *       and releases it when the body completes, errors, or the subscriber cancels. If the lease is lost first
 *       (the watchdog could not extend it, {@code maxHold} was reached, {@link Redlock#close()} took it) the body's
 *       subscription is cancelled and the flux ends with a {@link LeaseLostException}.</li>
 * </ul>
 *
 * <p><b>Threads.</b> Leases are emitted, and the body is subscribed, on the Redlock's internal I/O thread: do not
 * block there ({@code publishOn} / {@code subscribeOn} a scheduler of yours for blocking work).
 *
 * <p><b>What it does not guarantee.</b> Ending the body's subscription on a loss stops the work the body does in the
 * publisher chain; a side effect already in flight (a write sent to a database) is not recalled: pass
 * {@link Lease#fencingToken()} to the resource you write. Thread-safe; holds no state but the Redlock.
 *
 * <p>Example: {@code ReactiveRedlockIT} in {@code redlock-reactor} shows every case above.
 */
public final class ReactiveRedlock {
    private final Redlock redlock;

    private ReactiveRedlock(Redlock redlock) {
        this.redlock = redlock;
    }

    /** The Reactor API over {@code redlock} (which stays the caller's to close). */
    public static ReactiveRedlock of(Redlock redlock) {
        return new ReactiveRedlock(Objects.requireNonNull(redlock, "redlock"));
    }

    /**
     * Acquires the lock when subscribed, as {@link Redlock#acquireAsync} does (up to {@code retryCount} retries).
     * Errors: {@link LockUnavailableException} when no round reached a quorum, {@link IllegalArgumentException} on
     * a bad resource name or TTL, {@link IllegalStateException} after the Redlock was closed.
     */
    public Mono<Lease> acquire(String resource, Duration ttl) {
        return Mono.create(sink -> {
            CompletableFuture<Lease> acquisition = redlock.acquireAsync(resource, ttl);
            // cancelled before the lease reached the subscriber: stop the rounds, or give back what they got
            sink.onCancel(() -> {
                if (!acquisition.cancel(false) && !acquisition.isCompletedExceptionally()) acquisition.join().releaseAsync();
            });
            acquisition.whenComplete((lease, error) -> {
                if (error != null) sink.error(unwrap(error));
                else sink.success(lease);
            });
        });
    }

    /**
     * Runs {@code body} under the lock: acquires when subscribed ({@link #acquire}), keeps the lease alive while the
     * body's publisher runs, and releases it on complete, error or cancel. A lost lease cancels the body's
     * subscription and ends the flux with {@link LeaseLostException}; so does a lease that turns out lost when the
     * body completes. A body that releases the lease itself completes normally.
     *
     * @param body called once per subscription with the held lease; its publisher's items are the flux's items
     */
    public <T> Flux<T> withLock(String resource, Duration ttl, Function<Lease, ? extends Publisher<T>> body) {
        Objects.requireNonNull(body, "body");
        return Flux.usingWhen(acquire(resource, ttl).map(Lease::keepAlive),
                lease -> Flux.<T>from(body.apply(lease)).takeUntilOther(lost(lease)).concatWith(endOf(lease)),
                ReactiveRedlock::release,
                (lease, error) -> release(lease),
                ReactiveRedlock::release);
    }

    /** Emits once the lease is lost (or taken by {@link Redlock#close()}); never after a normal release. */
    private static Mono<Boolean> lost(Lease lease) {
        return Mono.create(sink -> {
            CompletableFuture<Void> lost = lease.whenLost();
            sink.onCancel(() -> lost.cancel(false));       // our own future: the lease is not affected
            lost.whenComplete((x, e) -> {
                if (e == null) sink.success(Boolean.TRUE);
            });
        });
    }

    /** After the body: empty while the lease is valid (or its holder released it), else the loss. */
    private static <T> Mono<T> endOf(Lease lease) {
        return Mono.defer(() -> {
            if (lease.whenLost().isCompletedExceptionally()) return Mono.empty();   // released by the body
            try {
                lease.checkValid();
                return Mono.empty();
            } catch (LeaseLostException e) {
                return Mono.error(e);
            }
        });
    }

    private static Mono<Void> release(Lease lease) {
        return Mono.fromFuture(lease.releaseAsync(), true);
    }

    private static Throwable unwrap(Throwable e) {
        return e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
    }

    @Override
    public String toString() {
        return "ReactiveRedlock[" + redlock + "]";
    }
}
