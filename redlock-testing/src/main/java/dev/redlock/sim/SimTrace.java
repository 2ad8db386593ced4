package dev.redlock.sim;

import java.util.ArrayList;
import java.util.List;

/**
 * What happened in a simulation, one line per event ({@code virtual-nanos event}), for replaying a failing seed and
 * for checking that two runs of the same seed are identical byte for byte. Recording is off unless enabled (it
 * costs a string per event). Not thread-safe.
 */
public final class SimTrace {
    private final SimScheduler time;
    private final boolean enabled;
    private final List<String> lines = new ArrayList<>();

    /** A trace on {@code time}'s clock; {@code enabled} false records nothing. */
    public SimTrace(SimScheduler time, boolean enabled) {
        this.time = time;
        this.enabled = enabled;
    }

    /** A trace that records nothing. */
    public static SimTrace off(SimScheduler time) {
        return new SimTrace(time, false);
    }

    public boolean enabled() {
        return enabled;
    }

    /** Records one event at the current virtual time (no-op when disabled). */
    public void record(String event) {
        if (enabled) lines.add(time.nanoTime() + " " + event);
    }

    /** The lines so far (a copy). */
    public List<String> lines() {
        return List.copyOf(lines);
    }

    /** Every line, each ended by a newline. */
    public String text() {
        StringBuilder b = new StringBuilder();
        for (String l : lines) b.append(l).append('\n');
        return b.toString();
    }
}
