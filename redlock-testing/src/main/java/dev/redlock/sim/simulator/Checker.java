package dev.redlock.sim.simulator;

import dev.redlock.Lease;
import dev.redlock.sim.SimNode;
import dev.redlock.sim.SimScheduler;
import dev.redlock.sim.SimTrace;
import java.util.ArrayList;
import java.util.List;

/**
 * The safety properties, checked from the clients' own view of their leases and the fenced register's truth, at
 * every grant and release and every millisecond of virtual time in between (the register after every write):
 * <ul>
 *   <li>{@code TWO_HOLDERS}: at no moment do two leases on one resource both answer {@link Lease#isValid()} (each
 *       on its own client's clock);</li>
 *   <li>{@code LEASE_WITHOUT_QUORUM}: while a lease answers {@link Lease#isValid()}, a quorum of nodes hold its key
 *       with its owner value, on each node's own clock (a node that is down or restarted since the grant counts:
 *       the restart quarantine is what covers it). It is what {@code TWO_HOLDERS} needs a rival to show, seen without
 *       one: a validity that outlives the keys behind it;</li>
 *   <li>{@code TOKEN_NOT_INCREASING}: a lease's token is above the token of every lease on the resource that was
 *       over (released, or its validity seen over) before the acquisition that won it began;</li>
 *   <li>{@code LOST_UPDATE}: the fenced register never applied a write over another value than its writer read
 *       (it refuses a token below the highest it has seen, so this is what a repeated or stale token can do);</li>
 *   <li>{@code LOSS_NOT_REPORTED}: a lease whose validity is over while its holder did not release it has its
 *       {@link Lease#whenLost()} completed within {@link #LOSS_REPORT_NS} of its client's running time;</li>
 *   <li>{@code LEASE_REVIVED}: a lease whose validity was seen over (and that its holder did not release) never
 *       answers {@link Lease#isValid()} again.</li>
 * </ul>
 * Sampling every millisecond can see an end of validity up to a millisecond late: that only makes the token check
 * weaker (an end seen late excuses more), never reports what did not happen. Not thread-safe: the loop only.
 */
final class Checker {
    static final long SAMPLE_NS = 1_000_000;
    /** How long after a lease's validity was seen over its loss must be reported (its client not paused). */
    static final long LOSS_REPORT_NS = 5_000_000;

    private final SimScheduler time;
    private final SimTrace trace;
    private final SimNode store;
    private final List<Acquisition> all = new ArrayList<>();
    /** Won and not yet seen over: what the periodic check compares. */
    private final List<Acquisition> held = new ArrayList<>();
    /** Over without a release: their whenLost() is due. */
    private final List<Acquisition> lossDue = new ArrayList<>();
    private final List<Violation> violations = new ArrayList<>();
    private final String[] resources;
    private final long[] lostSeen;
    private final List<SimNode> nodes;
    private final int quorum;
    private final String keyPrefix;

    Checker(SimScheduler time, SimTrace trace, SimNode store, String[] resources, List<SimNode> nodes, int quorum, String keyPrefix) {
        this.time = time;
        this.trace = trace;
        this.store = store;
        this.resources = resources;
        this.lostSeen = new long[resources.length];
        this.nodes = nodes;
        this.quorum = quorum;
        this.keyPrefix = keyPrefix;
    }

    List<Violation> violations() {
        return violations;
    }

    Acquisition invoked(int client, ClientExecutor exec, int number, String resource) {
        Acquisition a = new Acquisition(client, exec, number, resource, time.nanoTime());
        all.add(a);
        return a;
    }

    /** {@code a} won {@code lease}: checks it against every other lease on its resource. */
    void won(Acquisition a, Lease lease) {
        sample();
        a.lease = lease;
        a.token = lease.fencingToken();
        a.grantedAt = time.nanoTime();
        backers(a);
        held.add(a);
        if (trace.enabled()) trace.record("check won " + a.label() + " valid " + lease.remainingValidity().toNanos() + "ns");
        for (Acquisition b : all) {
            if (b == a || !b.won() || !b.resource.equals(a.resource)) continue;
            if (b.endedAt >= 0 && b.endedAt < a.invokedAt && a.token <= b.token) {
                fail(Violation.Kind.TOKEN_NOT_INCREASING, a.label() + " (invoked at " + ms(a.invokedAt) + ") after "
                        + b.label() + " was over at " + ms(b.endedAt));
            }
        }
        sample();
    }

    /** The workload released {@code a}: from now it no longer counts as held. */
    void released(Acquisition a) {
        sample();
        if (a.endedAt < 0) a.endedAt = time.nanoTime();
        a.releasedAt = time.nanoTime();
    }

    /** Every held lease's validity now, and the losses due: what the periodic check and every event run. */
    void sample() {
        long now = time.nanoTime();
        for (int i = 0; i < held.size(); i++) {
            Acquisition a = held.get(i);
            if (a.endedAt < 0 && !a.lease.isValid()) a.endedAt = now;
        }
        for (int i = 0; i < held.size(); i++) {
            Acquisition a = held.get(i);
            if (!a.held()) continue;
            for (int j = i + 1; j < held.size(); j++) {
                Acquisition b = held.get(j);
                if (b.held() && b.resource.equals(a.resource)) {
                    fail(Violation.Kind.TWO_HOLDERS, a.label() + " (validity left " + a.lease.remainingValidity().toNanos()
                            + "ns) and " + b.label() + " (validity left " + b.lease.remainingValidity().toNanos() + "ns)");
                    // report a pair once: the later one no longer counts
                    b.endedAt = now;
                }
            }
        }
        for (int i = 0; i < held.size(); i++) {
            Acquisition a = held.get(i);
            if (a.held() && a.owner != null && backing(a) < quorum) {
                fail(Violation.Kind.LEASE_WITHOUT_QUORUM, a.label() + " (validity left " + a.lease.remainingValidity().toNanos()
                        + "ns) is backed by " + backing(a) + " node(s), quorum " + quorum);
                a.owner = null;   // report a lease once
            }
        }
        for (int i = held.size() - 1; i >= 0; i--) {
            Acquisition a = held.get(i);
            if (a.held()) continue;
            held.remove(i);
            if (a.releasedAt < 0) lossDue.add(a);
        }
        for (int i = lossDue.size() - 1; i >= 0; i--) {
            Acquisition a = lossDue.get(i);
            // (after another violation, a lease the checker stopped counting may still be valid: not a revival)
            if (violations.isEmpty() && a.lease.isValid()) {
                fail(Violation.Kind.LEASE_REVIVED, a.label() + " answers isValid() again (validity left "
                        + a.lease.remainingValidity().toNanos() + "ns), its validity seen over at " + ms(a.endedAt));
                lossDue.remove(i);   // report a lease once
                continue;
            }
            if (a.releasedAt < 0 && !a.lossReported) lossReported(a, now);
            if (a.releasedAt >= 0 || a.lossReported) lossDue.remove(i);
        }
    }

    /** At the grant: the owner value most nodes hold for {@code a}'s key (a quorum, if the grant is sound), and their run ids. */
    private void backers(Acquisition a) {
        String key = keyPrefix + a.resource;
        a.runIds = new String[nodes.size()];
        java.util.Map<String, Integer> count = new java.util.HashMap<>();
        String best = null;
        for (int i = 0; i < nodes.size(); i++) {
            SimNode n = nodes.get(i);
            a.runIds[i] = n.runId();
            if (!n.isRunning() || !(n.peek(key) instanceof String v)) continue;
            int c = count.merge(v, 1, Integer::sum);
            if (best == null || c > count.get(best)) best = v;
        }
        a.owner = best;
    }

    /** How many nodes back {@code a} now: hold its key with its owner, or are down or restarted since the grant. */
    private int backing(Acquisition a) {
        String key = keyPrefix + a.resource;
        int n = 0;
        for (int i = 0; i < nodes.size(); i++) {
            SimNode node = nodes.get(i);
            if (!node.isRunning() || !node.runId().equals(a.runIds[i]) || a.owner.equals(node.peek(key))) n++;
        }
        return n;
    }

    /** A fenced write on {@code resource}'s register completed: the register's truth, read from its node. */
    void wrote(String resource) {
        for (int r = 0; r < resources.length; r++) {
            if (!resources[r].equals(resource)) continue;
            long lost = Register.lostUpdates(store, resources[r]);
            if (lost > lostSeen[r]) {
                lostSeen[r] = lost;
                fail(Violation.Kind.LOST_UPDATE, resources[r] + ": " + Register.lastLost(store, resources[r]));
            }
        }
    }

    private void lossReported(Acquisition a, long now) {
        if (a.lease.whenLost().isDone()) {
            a.lossReported = true;
        } else if (a.lossDueSince < 0 || a.exec.isPaused()) {
            a.lossDueSince = now;   // a paused client's timers wait: its time to report starts when it runs
        } else if (now - a.lossDueSince > LOSS_REPORT_NS) {
            fail(Violation.Kind.LOSS_NOT_REPORTED, a.label() + " is over (validity left " + a.lease.remainingValidity().toNanos()
                    + "ns), not released, and whenLost() has not completed " + ms(now - a.lossDueSince) + " later");
        }
    }

    void fail(Violation.Kind kind, String detail) {
        Violation v = new Violation(kind, time.nanoTime(), detail);
        violations.add(v);
        if (trace.enabled()) trace.record("VIOLATION " + v);
    }

    /** Leases won so far. */
    int wins() {
        int n = 0;
        for (Acquisition a : all) if (a.won()) n++;
        return n;
    }

    static String ms(long ns) {
        return String.format(java.util.Locale.ROOT, "%.3fms", ns / 1e6);
    }
}
