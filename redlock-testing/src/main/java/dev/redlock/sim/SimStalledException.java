package dev.redlock.sim;

/**
 * A {@link SimScheduler} run stopped because virtual time stood still for more tasks than its limit
 * ({@link SimScheduler#limitTasksPerInstant}): something reschedules itself with no delay, a busy loop that would
 * spin a real CPU.
 */
public final class SimStalledException extends IllegalStateException {
    public SimStalledException(String message) {
        super(message);
    }
}
