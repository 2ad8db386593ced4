package dev.redlock.spring;

import dev.redlock.Lease;
import dev.redlock.LeaseLostException;
import dev.redlock.LockAttempt;
import dev.redlock.LockUnavailableException;
import dev.redlock.Redlock;
import dev.redlock.RedlockException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.springframework.aop.support.AopUtils;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.util.ClassUtils;

/**
 * Acquires the {@link Locked} method's lease, keeps it alive while the method runs, makes it
 * {@link LockedContext#lease()}, and releases it when the method ends, or after the transaction it runs in completed.
 */
final class LockedInterceptor implements MethodInterceptor {
    private static final boolean TRANSACTIONS = ClassUtils.isPresent(
            "org.springframework.transaction.support.TransactionSynchronizationManager", LockedInterceptor.class.getClassLoader());

    private final Supplier<Redlock> lookup;
    private final LockedSpecs specs;
    private volatile Redlock redlock;

    LockedInterceptor(Supplier<Redlock> lookup, LockedSpecs specs) {
        this.lookup = lookup;
        this.specs = specs;
    }

    @Override
    public Object invoke(MethodInvocation invocation) throws Throwable {
        Object target = invocation.getThis();
        LockedSpec spec = specs.get(invocation.getMethod(),
                target == null ? invocation.getMethod().getDeclaringClass() : AopUtils.getTargetClass(target));
        if (spec == null) return invocation.proceed();
        String resource = spec.resource(invocation.getArguments());
        Lease lease = acquire(redlock(), resource, spec.ttl(), spec.maxWait()).keepAlive();
        Lease outer = LockedContext.enter(lease);
        Object result;
        try {
            result = invocation.proceed();
        } catch (Throwable t) {
            LockedContext.exit(outer);
            LeaseLostException lost = lossOf(lease);
            if (lost != null) t.addSuppressed(lost);
            end(lease);
            throw t;
        }
        LockedContext.exit(outer);
        LeaseLostException lost = lossOf(lease);
        if (lost != null) {
            lease.release();
            throw lost;            // instead of the result; a transaction around the method rolls back
        }
        end(lease);
        return result;
    }

    private Redlock redlock() {
        Redlock r = redlock;
        if (r == null) redlock = r = lookup.get();
        return r;
    }

    /** Releases now, or after the transaction this thread runs in completed (and checks the lease before it commits). */
    private static void end(Lease lease) {
        if (TRANSACTIONS && Transactions.deferRelease(lease)) return;
        lease.release();
    }

    /** The loss of {@code lease} as an exception, or null while it is valid or after the method released it. */
    static LeaseLostException lossOf(Lease lease) {
        if (lease.whenLost().isCompletedExceptionally()) return null;
        try {
            lease.checkValid();
            return null;
        } catch (LeaseLostException e) {
            return e;
        }
    }

    /**
     * {@code maxWait} null: {@code Redlock.acquire}; zero: one round; else attempts until it has passed.
     *
     * @throws LockUnavailableException when not acquired in that time (with the last round's outcomes when known)
     */
    static Lease acquire(Redlock redlock, String resource, Duration ttl, Duration maxWait) {
        if (maxWait == null) return redlock.acquire(resource, ttl);
        if (maxWait.isZero()) {
            LockAttempt one = redlock.attempt(resource, ttl);   // one round; its failure carries the node outcomes
            return one.lease().orElseThrow(() -> one.failure().orElseThrow());
        }
        long deadline = System.nanoTime() + maxWait.toNanos();
        LockUnavailableException last = null;
        int attempts = 0;
        while (true) {
            long left = deadline - System.nanoTime();
            if (left <= 0) throw notWithin(resource, maxWait, attempts, last);
            CompletableFuture<Lease> attempt = redlock.acquireAsync(resource, ttl);
            try {
                return attempt.get(left, TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                Lease late = abandon(attempt);
                if (late != null) return late;
                throw notWithin(resource, maxWait, attempts, last);
            } catch (InterruptedException e) {
                Lease late = abandon(attempt);
                if (late != null) late.release();
                Thread.currentThread().interrupt();
                throw new RedlockException("interrupted while acquiring '" + resource + "'", e);
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof LockUnavailableException u)) {
                    if (e.getCause() instanceof RuntimeException r) throw r;
                    throw new RedlockException("acquiring '" + resource + "' failed: " + e.getCause(), e.getCause());
                }
                last = u;
                attempts += u.attempts();
            }
        }
    }

    /** Cancels an attempt; the lease it already produced, if any (a later one is released by the Redlock). */
    private static Lease abandon(CompletableFuture<Lease> attempt) {
        if (attempt.cancel(false) || attempt.isCompletedExceptionally()) return null;
        return attempt.join();
    }

    private static LockUnavailableException notWithin(String resource, Duration maxWait, int attempts,
                                                      LockUnavailableException last) {
        return new LockUnavailableException(resource, Math.max(1, attempts), "not acquired within maxWait "
                + maxWait.toMillis() + "ms", last == null ? List.of() : last.outcomes());
    }

    /** Touches spring-tx only when it is on the class path. */
    private static final class Transactions {
        static boolean deferRelease(Lease lease) {
            if (!TransactionSynchronizationManager.isSynchronizationActive()) return false;
            TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                @Override
                public void beforeCommit(boolean readOnly) {
                    LeaseLostException lost = lossOf(lease);
                    if (lost != null) throw lost;          // the commit fails: the transaction rolls back
                }

                @Override
                public void afterCompletion(int status) {
                    lease.release();
                }
            });
            return true;
        }
    }
}
