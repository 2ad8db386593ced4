package dev.redlock.sim;

/**
 * A simulated node's error reply: the message is the reply's text exactly as Redis sends it (after the {@code -}),
 * e.g. {@code NOSCRIPT No matching script. Please use EVAL.}; so code that looks at an error's text (as the library
 * does for {@code NOSCRIPT}) sees what it would see from a real server.
 */
public final class SimRedisException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public SimRedisException(String errorText) {
        super(errorText, null, false, false);
    }
}
