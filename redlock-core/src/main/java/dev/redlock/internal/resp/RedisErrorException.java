package dev.redlock.internal.resp;

/** A Redis error reply ({@code -ERR ...}, {@code -WRONGTYPE ...}, {@code -NOSCRIPT ...}); the message is its text. */
public final class RedisErrorException extends RuntimeException {
    public RedisErrorException(String text) {
        super(text, null, false, false);
    }

    /** True when the reply is Redis's {@code NOSCRIPT} (EVALSHA of a script the server does not have). */
    public boolean isNoScript() {
        return getMessage() != null && getMessage().startsWith("NOSCRIPT");
    }
}
