package dev.redlock.sim.simulator;

import dev.redlock.sim.SimScheduler;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.Delayed;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * One client process's timers and event thread on the simulation's loop: what the client's {@code Redlock} and its
 * workload schedule runs on the {@link SimScheduler}, except while the process is paused (a stop-the-world pause):
 * then whatever falls due waits until {@link #resume()}, as a paused JVM's threads do. A real client runs its timers
 * on one thread and its I/O callbacks on another, so after a pause the two resume in either order: timers wait in
 * their order, tasks handed over ({@code execute}, what replies complete) in theirs, and {@code resume} interleaves
 * the two queues by the simulation's seeded coin. Not thread-safe: the loop's thread only.
 */
final class ClientExecutor extends AbstractExecutorService implements ScheduledExecutorService {
    private final SimScheduler time;
    private final ArrayDeque<Runnable> deferredTimers = new ArrayDeque<>();
    private final ArrayDeque<Runnable> deferredTasks = new ArrayDeque<>();
    private boolean paused;

    ClientExecutor(SimScheduler time) {
        this.time = time;
    }

    void pause() {
        paused = true;
    }

    boolean isPaused() {
        return paused;
    }

    /**
     * Runs what fell due during the pause: the timers in their order and the handed-over tasks in theirs, the two
     * interleaved by a seeded coin (a cancelled timer does not run).
     */
    void resume() {
        if (!paused) return;
        paused = false;
        while (!paused && !(deferredTimers.isEmpty() && deferredTasks.isEmpty())) {
            boolean timer = deferredTasks.isEmpty() || (!deferredTimers.isEmpty() && time.random().nextBoolean());
            (timer ? deferredTimers : deferredTasks).poll().run();
        }
    }

    private Runnable gated(Runnable task, boolean timer) {
        return () -> {
            if (paused) (timer ? deferredTimers : deferredTasks).add(task);
            else task.run();
        };
    }

    @Override
    public void execute(Runnable command) {
        time.execute(gated(command, false));
    }

    @Override
    public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
        Handle<Object> h = new Handle<>();
        h.inner = time.schedule(gated(() -> {
            if (!h.cancelled) command.run();
        }, true), delay, unit);
        return h;
    }

    @Override
    public <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
        return (ScheduledFuture<V>) schedule(() -> {
            try {
                callable.call();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, delay, unit);
    }

    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period, TimeUnit unit) {
        return time.scheduleAtFixedRate(gated(command, true), initialDelay, period, unit);
    }

    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay, TimeUnit unit) {
        return time.scheduleWithFixedDelay(gated(command, true), initialDelay, delay, unit);
    }

    /** A client does not shut the simulation's loop down. */
    @Override
    public void shutdown() {}

    @Override
    public List<Runnable> shutdownNow() {
        return List.of();
    }

    @Override
    public boolean isShutdown() {
        return false;
    }

    @Override
    public boolean isTerminated() {
        return false;
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) {
        return false;
    }

    /** A timer whose cancellation also stops a run deferred by a pause. */
    private static final class Handle<V> implements ScheduledFuture<V> {
        ScheduledFuture<?> inner;
        boolean cancelled;

        @Override
        public long getDelay(TimeUnit unit) {
            return inner.getDelay(unit);
        }

        @Override
        public int compareTo(Delayed o) {
            return inner.compareTo(o);
        }

        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            cancelled = true;
            return inner.cancel(mayInterruptIfRunning);
        }

        @Override
        public boolean isCancelled() {
            return cancelled;
        }

        @Override
        public boolean isDone() {
            return cancelled || inner.isDone();
        }

        @Override
        public V get() {
            throw new IllegalStateException("a simulated timer cannot be waited for");
        }

        @Override
        public V get(long timeout, TimeUnit unit) {
            return get();
        }
    }
}
