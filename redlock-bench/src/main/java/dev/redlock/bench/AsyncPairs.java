package dev.redlock.bench;

import dev.redlock.Lease;
import dev.redlock.LockAttempt;
import dev.redlock.Redlock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * W1 for redlock with an asynchronous caller, timed the way node-redlock's loop is: {@code acquireAsync}, then on
 * its completion {@code releaseAsync}, then the next pair, every step started from the previous one's callback on the
 * instance's I/O thread and timed there. No thread waits, so no thread hand-off is inside a measurement: the figures
 * are the library's own cost, beside the blocking caller's (W1's main rows). The instance has {@code retryCount} 0
 * (one round per acquire, as {@code tryAcquire}).
 */
final class AsyncPairs implements LockClient {
    private final Redlock redlock;

    AsyncPairs(Redlock redlock) {
        this.redlock = redlock;
    }

    @Override
    public Held acquire(String resource, long ttlMs, long waitMs) {
        LockAttempt a = redlock.attempt(resource, Duration.ofMillis(ttlMs));
        if (!a.acquired()) throw a.failure().orElseThrow();
        Lease l = a.lease().orElseThrow();
        return new Held(l, l.fencingToken());
    }

    @Override
    public void release(Held held) {
        ((Lease) held.handle()).release();
    }

    @Override
    public int uncontended(String resource, long ttlMs, int n, Latencies acquires, Latencies releases) {
        Chain chain = new Chain(resource, Duration.ofMillis(ttlMs), n, acquires, releases);
        chain.next();
        try {
            return chain.done.get(n + 60L, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("W1 async pairs did not finish", e);
        }
    }

    @Override
    public void close() {
        redlock.close();
    }

    /** The pairs, one after the other (each step happens-after the previous one, so no locking). */
    private final class Chain {
        final String resource;
        final Duration ttl;
        final int n;
        final Latencies acquires;
        final Latencies releases;
        final CompletableFuture<Integer> done = new CompletableFuture<>();
        int started;
        int failures;

        Chain(String resource, Duration ttl, int n, Latencies acquires, Latencies releases) {
            this.resource = resource;
            this.ttl = ttl;
            this.n = n;
            this.acquires = acquires;
            this.releases = releases;
        }

        void next() {
            if (started++ == n) {
                done.complete(failures);
                return;
            }
            long t0 = System.nanoTime();
            AsyncCallers.acquire(redlock, resource, ttl).whenComplete((lease, e) -> {
                long t1 = System.nanoTime();
                if (e != null) {
                    failures++;
                    next();
                    return;
                }
                lease.releaseAsync().whenComplete((x, e2) -> {
                    if (e2 != null) {
                        failures++;                          // as the blocking caller: a failed release is no pair
                    } else if (acquires != null) {
                        acquires.add(t1 - t0);
                        releases.add(System.nanoTime() - t1);
                    }
                    next();
                });
            });
        }
    }
}
