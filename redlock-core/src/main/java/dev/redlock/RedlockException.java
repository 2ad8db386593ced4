package dev.redlock;

/**
 * Common base of every exception this library throws on purpose. Unchecked: a lock that cannot be had is an
 * outcome the caller handles where it makes sense, not at every call site.
 *
 * <p>Configuration mistakes are {@link IllegalArgumentException}s, not {@code RedlockException}s.
 */
public class RedlockException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public RedlockException(String message) {
        super(message);
    }

    public RedlockException(String message, Throwable cause) {
        super(message, cause);
    }
}
