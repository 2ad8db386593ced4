package dev.redlock.internal.resp;

/**
 * The connection had commands outstanding and no reply for the whole reply window, so it was closed (and is being
 * reconnected); every command that was pending on it fails with this. Whether those commands ran is unknown.
 */
public final class RedisReplyTimeoutException extends RedisConnectionException {
    public RedisReplyTimeoutException(String message) {
        super(message);
    }
}
