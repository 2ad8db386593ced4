package dev.redlock.fencing;

import java.util.Objects;

/**
 * A value stored by {@link FencedRedisStore} together with the fencing token it was written with.
 *
 * @param value the stored value
 * @param fence the token of the write that stored it
 */
public record FencedValue(String value, long fence) {
    public FencedValue {
        Objects.requireNonNull(value, "value");
    }
}
