package dev.redlock.internal.resp;

/**
 * The command did not get a reply from the node: not connected (the message says why the last attempt failed), the
 * connection closed with the command outstanding, or its handshake failed. Whether a command that was written took
 * effect is unknown.
 */
public class RedisConnectionException extends RuntimeException {
    public RedisConnectionException(String message) {
        this(message, null);
    }

    /** No stack trace: these are made on the event loop, often, and where they were made says nothing. */
    public RedisConnectionException(String message, Throwable cause) {
        super(message, cause, false, false);
    }
}
