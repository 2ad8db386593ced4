package dev.redlock.sim;

import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.Delayed;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RunnableScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** One task of a {@link SimScheduler}: ordered by (due, sequence); its future. */
final class SimTask<V> implements RunnableScheduledFuture<V> {
    private static final int PENDING = 0, DONE = 1, FAILED = 2, CANCELLED = 3;

    private final Callable<V> body;
    private final long period;          // 0: once
    private final boolean fixedRate;
    private long due;
    private long sequence;
    private SimScheduler owner;
    private int state = PENDING;
    private boolean background;
    private V result;
    private Throwable failure;

    SimTask(Callable<V> body, long due, long period, boolean fixedRate) {
        this.body = body;
        this.due = due;
        this.period = period;
        this.fixedRate = fixedRate;
    }

    /** Marks it as the model's own background work (see {@link SimScheduler#runUntilIdle()}). */
    SimTask<V> inBackground() {
        background = true;
        return this;
    }

    boolean background() {
        return background;
    }

    long due() {
        return due;
    }

    void setDue(long due, long sequence) {
        this.due = due;
        this.sequence = sequence;
    }

    void owner(SimScheduler s) {
        this.owner = s;
    }

    /** Runs the body on the loop (called by the scheduler with the time already at {@link #due}). */
    void runAt(SimScheduler s) {
        synchronized (this) {
            if (state != PENDING) return;
        }
        try {
            V v = body.call();
            if (period > 0) {
                synchronized (this) {
                    if (state != PENDING) return;      // cancelled by its own run
                }
                s.requeue(this, fixedRate ? due + period : SimScheduler.saturatedAdd(s.nanoTime(), period));
                return;
            }
            finish(DONE, v, null);
        } catch (Throwable e) {
            s.recordFailure(e);
            finish(FAILED, null, e);
        }
    }

    @Override
    public void run() {
        if (owner != null) runAt(owner);
    }

    private synchronized void finish(int to, V v, Throwable e) {
        if (state != PENDING) return;
        state = to;
        result = v;
        failure = e;
        notifyAll();
    }

    @Override
    public boolean isPeriodic() {
        return period > 0;
    }

    @Override
    public long getDelay(TimeUnit unit) {
        long now = owner == null ? 0 : owner.nanoTime();
        return unit.convert(due - now, TimeUnit.NANOSECONDS);
    }

    @Override
    public int compareTo(Delayed o) {
        if (o == this) return 0;
        if (o instanceof SimTask<?> t) {
            int c = Long.compare(due, t.due);
            return c != 0 ? c : Long.compare(sequence, t.sequence);
        }
        return Long.compare(getDelay(TimeUnit.NANOSECONDS), o.getDelay(TimeUnit.NANOSECONDS));
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        synchronized (this) {
            if (state != PENDING) return false;
            state = CANCELLED;
            notifyAll();
        }
        if (owner != null) owner.remove(this);
        return true;
    }

    @Override
    public synchronized boolean isCancelled() {
        return state == CANCELLED;
    }

    @Override
    public synchronized boolean isDone() {
        return state != PENDING;
    }

    @Override
    public V get() throws InterruptedException, ExecutionException {
        try {
            return get(Long.MAX_VALUE, TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Waits in real time on another thread; on the loop's own thread a pending task can never complete while the
     * caller blocks, so that throws {@link IllegalStateException}.
     */
    @Override
    public synchronized V get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
        if (state == PENDING && owner != null && owner.inLoop()) {
            throw new IllegalStateException("get() of a pending simulated task on the simulation's own thread would never return");
        }
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        while (state == PENDING) {
            long left = deadline - System.nanoTime();
            if (left <= 0) throw new TimeoutException();
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        if (state == CANCELLED) throw new CancellationException();
        if (state == FAILED) throw new ExecutionException(failure);
        return result;
    }

    @Override
    public String toString() {
        return "SimTask[due=" + due + ", seq=" + sequence + (period > 0 ? ", every " + period + "ns" : "") + "]";
    }
}
