package dev.redlock.testing;

import dev.redlock.Lease;
import dev.redlock.LockUnavailableException;
import dev.redlock.Redlock;
import dev.redlock.internal.Failures;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** The three ways to acquire, so one test runs the same assertions through each (style: async is the primitive). */
public enum AcquireMode {
    ACQUIRE {
        @Override
        public Lease acquire(Redlock r, String resource, Duration ttl) {
            return r.acquire(resource, ttl);
        }
    },
    TRY_ACQUIRE {
        @Override
        public Lease acquire(Redlock r, String resource, Duration ttl) {
            Optional<Lease> l = r.tryAcquire(resource, ttl);
            return l.orElseThrow(() -> new LockUnavailableException(resource, 1, "tryAcquire returned empty",
                    List.of()));
        }
    },
    ACQUIRE_ASYNC {
        @Override
        public Lease acquire(Redlock r, String resource, Duration ttl) {
            try {
                return r.acquireAsync(resource, ttl).get(30, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                Throwable c = Failures.unwrap(e);
                if (c instanceof RuntimeException re) throw re;
                throw new IllegalStateException(c);
            } catch (InterruptedException | TimeoutException e) {
                throw new IllegalStateException(e);
            }
        }
    };

    public abstract Lease acquire(Redlock r, String resource, Duration ttl);
}
