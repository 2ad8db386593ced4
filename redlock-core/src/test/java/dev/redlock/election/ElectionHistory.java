package dev.redlock.election;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Append-only record of leadership transitions from many elections, and the checks on it. Two sources per election:
 * the state changes themselves (the package-private transition hook, exact {@link System#nanoTime()}), which define
 * when {@code isLeader()} could be true, and the public callbacks (timestamped when they run).
 */
final class ElectionHistory {
    enum Kind { ELECTED, REVOKED }

    enum Source { STATE, CALLBACK }

    record Event(Source source, Kind kind, String instance, long epoch, long nanos) {}

    /** One term as the state changes saw it: [start, end), end = Long.MAX_VALUE while still open. */
    record Interval(String instance, long epoch, long start, long end) {}

    private final ConcurrentLinkedQueue<Event> events = new ConcurrentLinkedQueue<>();

    /** Records both sources of {@code e}; call before {@code e.start()}. */
    LeaderElection attach(LeaderElection e) {
        e.transitionListener((term, elected, nanos) -> events.add(new Event(Source.STATE,
                elected ? Kind.ELECTED : Kind.REVOKED, term.instanceId(), term.epoch(), nanos)));
        e.onElected(t -> events.add(new Event(Source.CALLBACK, Kind.ELECTED, t.instanceId(), t.epoch(), System.nanoTime())));
        e.onRevoked(t -> events.add(new Event(Source.CALLBACK, Kind.REVOKED, t.instanceId(), t.epoch(), System.nanoTime())));
        return e;
    }

    List<Event> events() {
        return List.copyOf(events);
    }

    List<Event> events(Source source, Kind kind) {
        return events.stream().filter(e -> e.source() == source && e.kind() == kind).toList();
    }

    /** Terms from the state changes, ordered by start. */
    List<Interval> intervals() {
        Map<String, Interval> open = new LinkedHashMap<>();
        List<Interval> out = new ArrayList<>();
        for (Event e : events) {
            if (e.source() != Source.STATE) continue;
            String key = e.instance() + "#" + e.epoch();
            if (e.kind() == Kind.ELECTED) {
                if (open.put(key, new Interval(e.instance(), e.epoch(), e.nanos(), Long.MAX_VALUE)) != null) {
                    fail("term elected twice: " + key);
                }
            } else {
                Interval i = open.remove(key);
                if (i == null) fail("term revoked without being elected: " + key);
                out.add(new Interval(i.instance(), i.epoch(), i.start(), e.nanos()));
            }
        }
        out.addAll(open.values());
        out.sort(Comparator.comparingLong(Interval::start));
        return out;
    }

    /**
     * No two terms overlap in time (a term that began must have ended before the next began), epochs strictly
     * increase from term to term, and on each instance the callbacks of a term come in order: elected, then revoked.
     */
    void check() {
        List<Interval> terms = intervals();
        for (int i = 1; i < terms.size(); i++) {
            Interval prev = terms.get(i - 1);
            Interval next = terms.get(i);
            if (next.start() < prev.end()) {
                fail("two leaders at once: " + prev + " and " + next + " overlap by "
                        + (prev.end() == Long.MAX_VALUE ? "an open term" : (prev.end() - next.start()) / 1e6 + " ms")
                        + "\n" + describe());
            }
            if (next.epoch() <= prev.epoch()) {
                fail("epochs must strictly increase from term to term: " + prev + " then " + next + "\n" + describe());
            }
        }
        Map<String, Long> lastElected = new HashMap<>();
        for (Event e : events) {
            if (e.source() != Source.CALLBACK) continue;
            Long open = lastElected.get(e.instance());
            if (e.kind() == Kind.ELECTED) {
                assertTrue(open == null, "callback elected(" + e.epoch() + ") on " + e.instance()
                        + " before revoked(" + open + ")");
                lastElected.put(e.instance(), e.epoch());
            } else {
                assertEquals(open, e.epoch(), "callback revoked on " + e.instance() + " does not match its elected");
                lastElected.remove(e.instance());
            }
        }
    }

    String describe() {
        StringBuilder sb = new StringBuilder();
        long t0 = events.stream().mapToLong(Event::nanos).min().orElse(0);
        for (Interval i : intervals()) {
            sb.append(String.format("  %-14s epoch %-18d %9.1f .. %s ms%n", i.instance(), i.epoch(), (i.start() - t0) / 1e6,
                    i.end() == Long.MAX_VALUE ? "open" : String.format("%.1f", (i.end() - t0) / 1e6)));
        }
        return sb.toString();
    }
}
