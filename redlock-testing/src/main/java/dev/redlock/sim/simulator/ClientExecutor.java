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
 * then whatever falls due waits, in order, until {@link #resume()}, as a paused JVM's timers do. Not thread-safe:
 * the loop's thread only.
 */
final class ClientExecutor extends AbstractExecutorService implements ScheduledExecutorService {
    private final SimScheduler time;
    private final ArrayDeque<Runnable> deferred = new ArrayDeque<>();
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

    /** Runs what fell due during the pause, in order (each may be cancelled meanwhile: then it does not run). */
    void resume() {
        if (!paused) return;
        paused = false;
        while (!deferred.isEmpty() && !paused) deferred.poll().run();
    }

    private Runnable gated(Runnable task) {
        return () -> {
            if (paused) deferred.add(task);
            else task.run();
        };
    }

    @Override
    public void execute(Runnable command) {
        time.execute(gated(command));
    }

    @Override
    public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
        Handle<Object> h = new Handle<>();
        h.inner = time.schedule(gated(() -> {
            if (!h.cancelled) command.run();
        }), delay, unit);
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
        return time.scheduleAtFixedRate(gated(command), initialDelay, period, unit);
    }

    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay, TimeUnit unit) {
        return time.scheduleWithFixedDelay(gated(command), initialDelay, delay, unit);
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
