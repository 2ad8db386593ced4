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
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Append-only record of leadership transitions from many elections, and the checks on it. Two sources per election:
 * the state changes themselves (the election's {@link TermProbe} seam, exact times on the elections' clock, which is
 * {@link System#nanoTime()} here), which define when {@code isLeader()} could be true, and the public callbacks
 * (timestamped when they run). A {@linkplain #crashed crashed} instance's open term ends where its
 * {@code isLeader()} turned false by the clock: at the revocation deadline it last reported.
 */
final class ElectionHistory implements TermProbe {
    enum Kind { ELECTED, REVOKED }

    enum Source { STATE, CALLBACK }

    record Event(Source source, Kind kind, String instance, long epoch, long nanos) {}

    /** One term as the state changes saw it: [start, end), end = Long.MAX_VALUE while still open. */
    record Interval(String instance, long epoch, long start, long end) {}

    /** The deadlines a term last reported. */
    record Deadlines(long revokeAt, long leaseDeadline) {}

    private final ConcurrentLinkedQueue<Event> events = new ConcurrentLinkedQueue<>();
    private final Map<String, Deadlines> held = new ConcurrentHashMap<>();        // instance#epoch -> last report
    private final Map<String, Long> lastEpoch = new ConcurrentHashMap<>();        // instance -> its latest term
    private final Set<String> crashed = ConcurrentHashMap.newKeySet();

    @Override
    public void held(Term term, long nanos, long revokeAtNanos, long leaseDeadlineNanos) {
        String key = term.instanceId() + "#" + term.epoch();
        if (held.put(key, new Deadlines(revokeAtNanos, leaseDeadlineNanos)) == null) {
            lastEpoch.put(term.instanceId(), term.epoch());
            events.add(new Event(Source.STATE, Kind.ELECTED, term.instanceId(), term.epoch(), nanos));
        }
    }

    @Override
    public void ended(Term term, long nanos) {
        events.add(new Event(Source.STATE, Kind.REVOKED, term.instanceId(), term.epoch(), nanos));
    }

    /** Builds {@code b} reporting to this history and records its callbacks too; start it after. */
    LeaderElection attach(LeaderElection.Builder b) {
        LeaderElection e = b.probe(this).build();
        e.onElected(t -> events.add(new Event(Source.CALLBACK, Kind.ELECTED, t.instanceId(), t.epoch(), System.nanoTime())));
        e.onRevoked(t -> events.add(new Event(Source.CALLBACK, Kind.REVOKED, t.instanceId(), t.epoch(), System.nanoTime())));
        return e;
    }

    /** {@code e}'s process died (its clock froze): its open term ends at the revocation deadline it last reported. */
    void crashed(LeaderElection e) {
        crashed.add(e.instanceId());
    }

    /** The lease deadline last reported for {@code e}'s latest term; {@link Long#MIN_VALUE} before its first. */
    long leaseDeadline(LeaderElection e) {
        Long epoch = lastEpoch.get(e.instanceId());
        Deadlines d = epoch == null ? null : held.get(e.instanceId() + "#" + epoch);
        return d == null ? Long.MIN_VALUE : d.leaseDeadline();
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
        for (Interval i : open.values()) {
            Deadlines d = held.get(i.instance() + "#" + i.epoch());
            out.add(crashed.contains(i.instance()) && d != null
                    ? new Interval(i.instance(), i.epoch(), i.start(), d.revokeAt()) : i);
        }
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
