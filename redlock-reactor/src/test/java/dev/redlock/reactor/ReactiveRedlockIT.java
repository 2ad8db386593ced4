package dev.redlock.reactor;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.Lease;
import dev.redlock.LeaseLostException;
import dev.redlock.LockUnavailableException;
import dev.redlock.Redlock;
import dev.redlock.testing.RedisNodes;
import dev.redlock.testkit.Sleep;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;

/**
 * {@link ReactiveRedlock} on real nodes: the lease is kept alive while the body runs and released on complete,
 * error and cancel; a lost lease cancels the body and ends the flux with {@link LeaseLostException}; cancelling the
 * acquire cancels the acquisition. The extension checks after each test that no lock key was left behind.
 */
class ReactiveRedlockIT {
    @RegisterExtension
    static final RedisNodes REDIS = new RedisNodes(3);

    private static final Duration WAIT = Duration.ofSeconds(10);

    private static boolean free(Redlock other, String resource) {
        return other.tryAcquire(resource, Duration.ofSeconds(1)).map(l -> {
            l.release();
            return true;
        }).orElse(false);
    }

    @Test
    void acquireEmitsALeaseTheSubscriberReleases() {
        try (Redlock redlock = Redlock.create(REDIS.config().build())) {
            Lease lease = ReactiveRedlock.of(redlock).acquire("mono", Duration.ofSeconds(2)).block(WAIT);
            assertTrue(lease.isValid());
            assertEquals("mono", lease.resource());
            lease.release();
        }
    }

    @Test
    void acquireSignalsAnUnavailableLock() {
        try (Redlock holder = Redlock.create(REDIS.config().build());
             Redlock redlock = Redlock.create(REDIS.config().retryCount(1).build())) {
            Lease held = holder.acquire("taken", Duration.ofSeconds(5));
            StepVerifier.create(ReactiveRedlock.of(redlock).acquire("taken", Duration.ofSeconds(1)))
                    .expectError(LockUnavailableException.class).verify(WAIT);
            StepVerifier.create(ReactiveRedlock.of(redlock).acquire("__bad", Duration.ofSeconds(1)))
                    .expectError(IllegalArgumentException.class).verify(WAIT);
            held.release();
        }
    }

    @Test
    void cancellingTheAcquireCancelsTheAcquisition() {
        try (Redlock holder = Redlock.create(REDIS.config().build());
             Redlock redlock = Redlock.create(REDIS.config().retryCount(500).retryDelay(Duration.ofMillis(20)).build())) {
            Lease held = holder.acquire("wanted", Duration.ofSeconds(5));
            AtomicBoolean emitted = new AtomicBoolean();
            Disposable subscription = ReactiveRedlock.of(redlock).acquire("wanted", Duration.ofSeconds(30))
                    .subscribe(l -> emitted.set(true));
            Sleep.millis(100);                               // retrying while the holder has it
            subscription.dispose();
            held.release();                                  // free: an acquisition still running would take it now
            Sleep.millis(300);
            assertTrue(REDIS.awaitNoLockKeys().isEmpty(), "the cancelled acquisition took the lock: " + REDIS.lockKeys());
            assertFalse(emitted.get());
        }
    }

    @Test
    void theLeaseIsKeptAliveWhileTheBodyRunsAndReleasedOnComplete() {
        try (Redlock redlock = Redlock.create(REDIS.config().build());
             Redlock other = Redlock.create(REDIS.config().retryCount(0).build())) {
            AtomicBoolean someoneElseHeldIt = new AtomicBoolean();
            List<Long> ticks = ReactiveRedlock.of(redlock).withLock("stream", Duration.ofMillis(900),
                    lease -> Flux.interval(Duration.ofMillis(100)).take(30)        // 3 s: more than three TTLs
                            .publishOn(Schedulers.boundedElastic())
                            .doOnNext(i -> {
                                lease.checkValid();
                                if (other.tryAcquire("stream", Duration.ofMillis(900)).isPresent()) someoneElseHeldIt.set(true);
                            }))
                    .collectList().block(WAIT);
            assertEquals(30, ticks.size());
            assertFalse(someoneElseHeldIt.get(), "another client got the lock while the body ran");
            await().atMost(WAIT).until(() -> free(other, "stream"));
        }
    }

    @Test
    void anErrorInTheBodyReleasesTheLease() {
        try (Redlock redlock = Redlock.create(REDIS.config().build());
             Redlock other = Redlock.create(REDIS.config().retryCount(0).build())) {
            StepVerifier.create(ReactiveRedlock.of(redlock).withLock("failing", Duration.ofSeconds(2),
                            lease -> Flux.concat(Mono.just(1), Mono.error(new IOException("disk full")))))
                    .expectNext(1).expectErrorMessage("disk full").verify(WAIT);
            await().atMost(WAIT).until(() -> free(other, "failing"));
        }
    }

    @Test
    void cancellingTheSubscriberReleasesTheLease() {
        try (Redlock redlock = Redlock.create(REDIS.config().build());
             Redlock other = Redlock.create(REDIS.config().retryCount(0).build())) {
            AtomicReference<Lease> seen = new AtomicReference<>();
            AtomicBoolean bodyCancelled = new AtomicBoolean();
            Disposable subscription = ReactiveRedlock.of(redlock).withLock("cancelled", Duration.ofSeconds(30), lease -> {
                seen.set(lease);
                return Flux.never().doOnCancel(() -> bodyCancelled.set(true));
            }).subscribe();
            await().atMost(WAIT).until(() -> seen.get() != null);
            subscription.dispose();
            await().atMost(WAIT).until(() -> !seen.get().isValid());
            assertTrue(bodyCancelled.get());
            await().atMost(WAIT).until(() -> free(other, "cancelled"));
        }
    }

    @Test
    void aLostLeaseCancelsTheBodyAndEndsTheFlux() {
        try (Redlock redlock = Redlock.create(REDIS.config().nodeTimeout(Duration.ofMillis(100)).build())) {
            AtomicBoolean bodyCancelled = new AtomicBoolean();
            AtomicReference<Throwable> ended = new AtomicReference<>();
            AtomicReference<Lease> seen = new AtomicReference<>();
            ReactiveRedlock.of(redlock).withLock("cut", Duration.ofMillis(600), lease -> {
                seen.set(lease);
                return Flux.never().doOnCancel(() -> bodyCancelled.set(true));
            }).subscribe(x -> { }, ended::set);
            await().atMost(WAIT).until(() -> seen.get() != null);
            REDIS.whilePaused(() -> await().atMost(WAIT).until(() -> ended.get() != null), 0, 1);
            assertInstanceOf(LeaseLostException.class, ended.get());
            assertTrue(ended.get().getMessage().contains("watchdog"), ended.get().getMessage());
            assertTrue(bodyCancelled.get(), "the body's subscription was not cancelled");
        }
    }

    @Test
    void maxHoldEndsABodyThatNeverCompletes() {
        try (Redlock redlock = Redlock.create(REDIS.config().maxHold(Duration.ofSeconds(1)).build())) {
            StepVerifier.create(ReactiveRedlock.of(redlock).withLock("stuck", Duration.ofMillis(600), lease -> Flux.never()))
                    .expectErrorSatisfies(e -> {
                        assertInstanceOf(LeaseLostException.class, e);
                        assertTrue(e.getMessage().contains("maxHold"), e.getMessage());
                    })
                    .verify(WAIT);
        }
    }

    @Test
    void closingTheRedlockEndsTheFlux() {
        Redlock redlock = Redlock.create(REDIS.config().build());
        AtomicReference<Throwable> ended = new AtomicReference<>();
        AtomicReference<Lease> seen = new AtomicReference<>();
        ReactiveRedlock.of(redlock).withLock("closing", Duration.ofSeconds(5), lease -> {
            seen.set(lease);
            return Flux.never();
        }).subscribe(x -> { }, ended::set);
        await().atMost(WAIT).until(() -> seen.get() != null);
        redlock.close();
        await().atMost(WAIT).until(() -> ended.get() != null);
        assertInstanceOf(LeaseLostException.class, ended.get());
        assertTrue(ended.get().getMessage().contains("the Redlock was closed"), ended.get().getMessage());
    }
}
