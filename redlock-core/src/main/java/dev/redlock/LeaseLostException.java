package dev.redlock;

/**
 * Thrown when a lease is no longer held: its validity ran out, an extension could not re-hold a quorum in time,
 * or {@link Lease#checkValid()} was called after either happened.
 *
 * <p>Once lost, a lease stays lost. Work done under it may overlap another holder's: protect the data with the
 * lease's fencing token.
 */
public class LeaseLostException extends RedlockException {
    private static final long serialVersionUID = 1L;

    private final String resource;

    public LeaseLostException(String resource, String message) {
        super("lease on '" + resource + "' lost: " + message);
        this.resource = resource;
    }

    public LeaseLostException(String resource, String message, Throwable cause) {
        super("lease on '" + resource + "' lost: " + message, cause);
        this.resource = resource;
    }

    /** The resource whose lease was lost. */
    public String resource() {
        return resource;
    }
}
