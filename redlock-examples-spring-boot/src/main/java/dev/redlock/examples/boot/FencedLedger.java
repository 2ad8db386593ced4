package dev.redlock.examples.boot;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.stereotype.Component;

/**
 * Stands for the resource a lock protects (a database row, a file): it keeps the highest fencing token that wrote
 * each entry and refuses a write with a lower one, so a holder whose lease ran out (a pause, a slow network) cannot
 * overwrite a newer holder's result. For SQL rows and Redis values the core has {@code FencedTable} and
 * {@code FencedRedisStore}. Thread-safe.
 */
@Component
public class FencedLedger {
    private record Entry(String value, long fence) {}

    private final Map<String, Entry> entries = new ConcurrentHashMap<>();

    /** Writes {@code value} when {@code token} is not lower than the entry's fence; false when it was refused. */
    public boolean write(String key, String value, long token) {
        boolean[] applied = {false};
        entries.compute(key, (k, old) -> {
            if (old != null && token < old.fence()) return old;
            applied[0] = true;
            return new Entry(value, token);
        });
        return applied[0];
    }

    /** The value written last, or null. */
    public String read(String key) {
        Entry e = entries.get(key);
        return e == null ? null : e.value();
    }
}
