package dev.redlock.chaos.proxy;

import java.util.Locale;
import java.util.Optional;

/** The stream a toxic sits on: client to server ({@code upstream}) or server to client ({@code downstream}). */
enum Direction {
    UPSTREAM,
    DOWNSTREAM;

    /** The name used on the wire: {@code upstream} or {@code downstream}. */
    String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses a wire name, ignoring case, as the real server does. */
    static Optional<Direction> parse(String value) {
        for (Direction d : values()) {
            if (d.wireName().equalsIgnoreCase(value)) {
                return Optional.of(d);
            }
        }
        return Optional.empty();
    }
}
