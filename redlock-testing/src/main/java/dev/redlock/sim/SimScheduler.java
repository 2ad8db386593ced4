package dev.redlock.sim;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A deterministic event loop on virtual time: one priority queue of timed tasks ordered by (due time, sequence
 * number), run one at a time on the thread that calls {@link #runUntilIdle()}, {@link #runFor(Duration)} or
 * {@link #runUntil(long)}. Virtual time ({@link #nanoTime()}) moves only when the loop takes the next task, straight
 * to that task's due time; nothing here reads the wall clock. Every random choice of a simulation comes from
 * {@link #random()}, seeded once, so a run is a function of its seed and of the code it drives.
 *
 * <p>It is also a {@link ScheduledExecutorService}, so a library's timers (call timeouts, retry delays, watchdogs)
 * run on virtual time when it is injected. What differs from a thread pool: {@code execute} and {@code submit} run
 * the task at the current virtual time after the tasks already due then; a blocking {@code get()} of one of its
 * futures on the loop thread would wait forever, so it throws instead; {@link #awaitTermination} never waits (time
 * moves only by running the loop). Tasks may be submitted from any thread (the queue is synchronized), but a
 * simulation that submits from other threads is no longer deterministic.
 *
 * <p>A task that throws does not stop the loop: the exception is kept ({@link #failures()}) and, for a periodic
 * task, the task is not run again (as with {@link java.util.concurrent.ScheduledThreadPoolExecutor}). A task given
 * to {@code submit} keeps its exception in its future, as a thread pool's does.
 */
public final class SimScheduler extends AbstractExecutorService implements ScheduledExecutorService {
    private final PriorityQueue<SimTask<?>> queue = new PriorityQueue<>();
    private final SplittableRandom random;
    private final long seed;
    private final List<Throwable> failures = new ArrayList<>();
    private volatile long now;
    private long sequence;
    private long executed;
    private int foregroundQueued;
    private boolean shutdown;
    private volatile Thread loopThread;
    private volatile Thread owner;
    private long instantLimit = Long.MAX_VALUE;
    private long atThisInstant;

    /** A loop at virtual time 0 whose {@link #random()} is seeded with {@code seed}. */
    public SimScheduler(long seed) {
        this.seed = seed;
        this.random = new SplittableRandom(seed);
    }

    /** The seed this loop's randomness started from. */
    public long seed() {
        return seed;
    }

    /**
     * The one source of randomness of this simulation. Not thread-safe: use it on the loop thread (or before the run
     * starts).
     */
    public SplittableRandom random() {
        return random;
    }

    /** Virtual nanoseconds since the loop was created: moves only when the loop runs a later task. */
    public long nanoTime() {
        return now;
    }

    /**
     * Stops a run that takes more than {@code tasks} tasks at one virtual instant (a task that keeps rescheduling
     * itself with no delay would otherwise hold virtual time still forever): the run throws
     * {@link SimStalledException}. Default: no limit.
     */
    public synchronized void limitTasksPerInstant(long tasks) {
        if (tasks < 1) throw new IllegalArgumentException("tasks must be >= 1, got " + tasks);
        this.instantLimit = tasks;
    }

    /** How many tasks the loop has run so far. */
    public synchronized long executedTasks() {
        return executed;
    }

    /** Tasks waiting (due now or later). */
    public synchronized int pendingTasks() {
        return queue.size();
    }

    /** The exceptions thrown by tasks so far (a copy). */
    public synchronized List<Throwable> failures() {
        return List.copyOf(failures);
    }

    /**
     * Runs tasks until only background ones are left (the model's own timers and retries: a node's AOF fsync, a
     * transport resubscribing); returns how many ran. A periodic task of your own never lets it end: use runFor.
     */
    public long runUntilIdle() {
        return run(Long.MAX_VALUE, true);
    }

    /** Runs every task due within {@code d} from now, then sets the time to now + d. */
    public long runFor(Duration d) {
        long end;
        synchronized (this) {
            end = saturatedAdd(now, d.toNanos());
        }
        return runUntil(end);
    }

    /** Same as {@link #runFor(Duration)}: time moves forward by {@code d}, running what falls due on the way. */
    public long advance(Duration d) {
        return runFor(d);
    }

    /**
     * Runs every task due at or before {@code virtualNanos} in (time, sequence) order, then sets the time to
     * {@code virtualNanos} (unless that is {@link Long#MAX_VALUE}: the time then stays at the last task's).
     *
     * @throws IllegalStateException when called from a task (the loop does not nest)
     */
    public long runUntil(long virtualNanos) {
        return run(virtualNanos, false);
    }

    private long run(long virtualNanos, boolean untilIdle) {
        synchronized (this) {
            if (loopThread != null) throw new IllegalStateException("the loop is already running on " + loopThread.getName());
            loopThread = Thread.currentThread();
            owner = loopThread;
        }
        long ran = 0;
        try {
            while (true) {
                SimTask<?> next;
                synchronized (this) {
                    next = queue.peek();
                    if (next == null || next.due() > virtualNanos || (untilIdle && foregroundQueued == 0)) {
                        if (virtualNanos != Long.MAX_VALUE && virtualNanos > now) now = virtualNanos;
                        return ran;
                    }
                    queue.poll();
                    if (!next.background()) foregroundQueued--;
                    if (next.due() > now) {
                        now = next.due();
                        atThisInstant = 0;
                    } else if (++atThisInstant > instantLimit) {
                        queue.add(next);
                        if (!next.background()) foregroundQueued++;
                        throw new SimStalledException(atThisInstant - 1 + " tasks ran at virtual time " + now
                                + " ns without time moving (a task that reschedules itself with no delay?)");
                    }
                    executed++;
                }
                ran++;
                next.runAt(this);
            }
        } finally {
            synchronized (this) {
                loopThread = null;
            }
        }
    }

    /** When the next task is due (virtual ns), or {@link Long#MAX_VALUE} when none is queued. */
    public synchronized long nextTaskTime() {
        SimTask<?> next = queue.peek();
        return next == null ? Long.MAX_VALUE : next.due();
    }

    /** Runs the next due task (at its time), if any; returns whether one ran. */
    public boolean runNext() {
        long due;
        synchronized (this) {
            SimTask<?> next = queue.peek();
            if (next == null) return false;
            due = next.due();
        }
        return runUntil(due) > 0;
    }

    /** Whether the calling thread is running this loop's tasks right now. */
    public boolean inLoop() {
        return loopThread == Thread.currentThread();
    }

    /**
     * Whether the calling thread may touch the simulation directly: it is the thread that runs (or last ran) the
     * loop, or the loop has never run. Any other thread must hand its work to the loop ({@link #execute}).
     */
    public boolean isOwnerThread() {
        Thread o = owner;
        return o == null || o == Thread.currentThread();
    }

    /** Runs {@code task} {@code delay} from now (a shorthand of {@link #schedule(Runnable, long, TimeUnit)}). */
    public ScheduledFuture<?> after(Duration delay, Runnable task) {
        return schedule(task, delay.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** Runs {@code task} at virtual time {@code virtualNanos} (now, if that has passed). */
    public ScheduledFuture<?> at(long virtualNanos, Runnable task) {
        return enqueue(new SimTask<>(Executors.callable(task), virtualNanos, 0, true));
    }

    synchronized void recordFailure(Throwable e) {
        failures.add(e);
    }

    /** Puts a periodic task back (called by the task itself after a run). */
    synchronized void requeue(SimTask<?> task, long due) {
        if (shutdown) return;
        task.setDue(due, sequence++);
        add(task);
    }

    synchronized void remove(SimTask<?> task) {
        if (queue.remove(task) && !task.background()) foregroundQueued--;
    }

    private void add(SimTask<?> task) {
        queue.add(task);
        if (!task.background()) foregroundQueued++;
    }

    /** A background task (see {@link #runUntilIdle()}) {@code delay} from now. */
    ScheduledFuture<?> background(Duration delay, Runnable task) {
        return enqueue(new SimTask<>(Executors.callable(task), dueIn(delay.toNanos(), TimeUnit.NANOSECONDS), 0, true).inBackground());
    }

    /** A periodic background task (see {@link #runUntilIdle()}). */
    ScheduledFuture<?> backgroundEvery(Duration period, Runnable task) {
        long p = period.toNanos();
        return enqueue(new SimTask<>(Executors.callable(task), dueIn(p, TimeUnit.NANOSECONDS), p, true).inBackground());
    }

    private <T> SimTask<T> enqueue(SimTask<T> task) {
        synchronized (this) {
            if (shutdown) throw new RejectedExecutionException("the simulation's scheduler is shut down");
            task.setDue(Math.max(task.due(), now), sequence++);
            task.owner(this);
            add(task);
        }
        return task;
    }

    private long dueIn(long delay, TimeUnit unit) {
        synchronized (this) {
            return saturatedAdd(now, Math.max(0, unit.toNanos(delay)));
        }
    }

    // ---- ScheduledExecutorService ----

    @Override
    public void execute(Runnable command) {
        at(0, command);
    }

    @Override
    public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
        return enqueue(new SimTask<>(Executors.callable(command), dueIn(delay, unit), 0, true));
    }

    @Override
    public <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
        return enqueue(new SimTask<>(callable, dueIn(delay, unit), 0, true));
    }

    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period, TimeUnit unit) {
        if (period <= 0) throw new IllegalArgumentException("period must be > 0, got " + period);
        return enqueue(new SimTask<>(Executors.callable(command), dueIn(initialDelay, unit), unit.toNanos(period), true));
    }

    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay, TimeUnit unit) {
        if (delay <= 0) throw new IllegalArgumentException("delay must be > 0, got " + delay);
        return enqueue(new SimTask<>(Executors.callable(command), dueIn(initialDelay, unit), unit.toNanos(delay), false));
    }

    /** New tasks are refused; tasks already queued still run when the loop runs. */
    @Override
    public synchronized void shutdown() {
        shutdown = true;
    }

    /** New tasks are refused and queued ones are dropped (returned, not run). */
    @Override
    public synchronized List<Runnable> shutdownNow() {
        shutdown = true;
        List<SimTask<?>> tasks = new ArrayList<>(queue);
        List<Runnable> dropped = new ArrayList<>(tasks);
        for (SimTask<?> t : tasks) t.cancel(false);   // a cancel takes the task off the queue: not while iterating it
        queue.clear();
        foregroundQueued = 0;
        return dropped;
    }

    @Override
    public synchronized boolean isShutdown() {
        return shutdown;
    }

    @Override
    public synchronized boolean isTerminated() {
        return shutdown && queue.isEmpty();
    }

    /** Never waits: virtual time moves only when the loop runs. Returns {@link #isTerminated()}. */
    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) {
        return isTerminated();
    }

    @Override
    public String toString() {
        return "SimScheduler[seed=" + seed + ", t=" + nanoTime() + "ns, pending=" + pendingTasks() + "]";
    }

    static long saturatedAdd(long a, long b) {
        long r = a + b;
        return ((a ^ r) & (b ^ r)) < 0 ? Long.MAX_VALUE : r;
    }
}
