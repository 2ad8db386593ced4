package dev.redlock.chaos.proxy;

import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The data-plane work one control request started: toxics re-applied on each open connection, connections
 * closed. The HTTP answer is sent once all of it is done, so when a client hears "toxic added" the toxic already
 * acts on every open connection (as with the real server); yet the control thread never blocks on it, and the
 * answer goes out after a bound even if some connection's loop were slow.
 */
final class Settlement {

    private final List<Future<?>> work = new ArrayList<>();

    void add(Future<?> future) {
        work.add(future);
    }

    /** Waits (from a thread that is none of the event loops') until all work is done; false after the timeout. */
    boolean await(long timeoutMillis) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        for (Future<?> future : work) {
            long left = deadline - System.nanoTime();
            if (left <= 0 || !future.awaitUninterruptibly(left, TimeUnit.NANOSECONDS)) {
                return false;
            }
        }
        return true;
    }

    /** How many of the finished pieces of work ended with {@code result}. */
    int count(Object result) {
        int n = 0;
        for (Future<?> future : work) {
            if (future.isSuccess() && result.equals(future.getNow())) {
                n++;
            }
        }
        return n;
    }

    /** Runs {@code action} on {@code executor} when all work is done, or after {@code timeoutMillis}. */
    void whenSettled(EventExecutor executor, long timeoutMillis, Runnable action) {
        if (work.isEmpty()) {
            action.run();
            return;
        }
        AtomicBoolean ran = new AtomicBoolean();
        Runnable once = () -> {
            if (ran.compareAndSet(false, true)) {
                action.run();
            }
        };
        ScheduledFuture<?> deadline = executor.schedule(once, timeoutMillis, TimeUnit.MILLISECONDS);
        AtomicInteger remaining = new AtomicInteger(work.size());
        for (Future<?> future : work) {
            future.addListener(f -> {
                if (remaining.decrementAndGet() == 0) {
                    deadline.cancel(false);
                    executor.execute(once);
                }
            });
        }
    }
}
