package dev.redlock.sim;

/**
 * A simulated connection failed: reset, or the node was down. Whether a command whose reply was lost this way ran
 * on the node is not known to the client (the network's trace records it).
 */
public final class SimConnectionException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public SimConnectionException(String message) {
        super(message, null, false, false);
    }
}
