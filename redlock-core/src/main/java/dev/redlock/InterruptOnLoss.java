package dev.redlock;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@link LockedTask#interruptOnLoss}: runs the task on the calling thread and interrupts that thread when the lease
 * is lost (or {@link Redlock#close()} takes it away) while the task runs; never after the task returned. An
 * interrupt it delivered is cleared before it returns, and turned into a {@link LeaseLostException} (the task's own
 * exception, if any, as its cause).
 */
final class InterruptOnLoss<T, E extends Exception> implements LockedTask<T, E> {
    private static final int RUNNING = 0;
    private static final int INTERRUPTING = 1;
    private static final int INTERRUPTED = 2;
    private static final int DONE = 3;

    private final LockedTask<T, E> task;

    InterruptOnLoss(LockedTask<T, E> task) {
        this.task = Objects.requireNonNull(task, "task");
    }

    @Override
    public T run(Lease lease) throws E {
        Thread runner = Thread.currentThread();
        AtomicInteger state = new AtomicInteger(RUNNING);
        CompletableFuture<Void> lost = lease.whenLost();
        lost.thenRun(() -> {
            if (state.compareAndSet(RUNNING, INTERRUPTING)) {
                runner.interrupt();
                state.set(INTERRUPTED);
            }
        });
        T result;
        try {
            result = task.run(lease);
        } catch (Exception e) {
            if (interruptedByUs(state)) throw lost(lease, e);
            throw e;
        } finally {
            lost.cancel(false);        // our own future: nothing else depends on it
        }
        if (interruptedByUs(state)) throw lost(lease, null);
        return result;
    }

    /** Ends the race with the loss: true (and the interrupt status cleared) when the loss interrupted the task. */
    private static boolean interruptedByUs(AtomicInteger state) {
        if (state.compareAndSet(RUNNING, DONE)) return false;
        while (state.get() == INTERRUPTING) Thread.onSpinWait();
        state.set(DONE);
        Thread.interrupted();
        return true;
    }

    private static LeaseLostException lost(Lease lease, Exception cause) {
        String why = lease instanceof HeldLease h ? h.lostReason() : "";
        return new LeaseLostException(lease.resource(), (why.isEmpty() ? "lost" : why) + " (the task was interrupted)", cause);
    }
}
