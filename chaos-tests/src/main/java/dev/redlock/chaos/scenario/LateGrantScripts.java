package dev.redlock.chaos.scenario;

import static dev.redlock.chaos.scenario.ScriptSteps.ms;

import dev.redlock.chaos.cluster.ProxySet;
import dev.redlock.chaos.history.Event;
import dev.redlock.chaos.history.History;
import dev.redlock.chaos.history.NodeSample;
import dev.redlock.chaos.nemesis.FaultHandle;
import dev.redlock.chaos.workload.Held;
import dev.redlock.chaos.workload.WorkloadClient;
import dev.redlock.testkit.Sleep;
import eu.rekawek.toxiproxy.model.ToxicDirection;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;

/**
 * Scenarios of the late-grant family, with their definitions: grants that reach a node, or come back from it, after
 * their round was decided or failed. The claim is about keys, not holders: no lock key outlives what the library
 * accounts for (a released lease's keys go at its release; a failed round's, and any grant that arrives late, at
 * once), which the ground-truth key-leak checker verifies from the nodes' own view. TTLs are long (3 s) so a leaked
 * key stands out from one the library removed.
 */
@SuppressWarnings("try") // fault handles are opened for their heal-in-finally, not referenced
final class LateGrantScripts {
    /** Longer than the key-leak checker's bound after a delaying fault (1 s + 1 s grace), so a leak is seen. */
    private static final Duration OBSERVE_AFTER_HEAL = Duration.ofMillis(2300);
    private static final Needs NEEDS = Needs.NOTHING.withOwnProxies().withProcessControl().withFixed("the delays "
            + "and the pause are timed against the node timeout and the rounds' TTL", Knob.TTL, Knob.NODE_TIMEOUT);

    private LateGrantScripts() {}

    private static final List<Scenario> SCENARIOS = List.of(
            new Scenario("L1", "late grants", "A's requests to one node delayed 150 ms ± 120 ms (its release can "
                    + "overtake its acquire), then that node SIGSTOPped while A's rounds fail and woken", Expectation.SAFE,
                    Settings.builder().ttl(ms(3000)).ownProxies(Set.of(0)).build(),
                    LateGrantScripts::lateGrants, NEEDS));

    /** The scenarios of this family, in order. */
    static List<Scenario> all() {
        return SCENARIOS;
    }

    /**
     * Phase 1, a grant that lands after its lease was released: A's requests to node v (its own proxy) are delayed
     * 150 ms ± 120 ms, per connection. Each round is decided by the four other nodes in a few ms and A releases at
     * once; its release to v travels on another connection and often overtakes the acquire, so v grants after the
     * release (on a transport with several connections per node; the library's own keeps one node's commands in
     * order, so there the release follows). The library must release such a late grant when its reply comes back.
     * Rounds repeat (at most 40) until the ground truth shows one: a value on v more than {@link #MAX_DELAY} after its
     * release was invoked, when that release had surely landed.
     *
     * <p>Phase 2, grants that come back after their round failed: node w is SIGSTOPped and A is cut from two other
     * nodes, so each round gets 2 grants, 2 errors and waits for w until nodeTimeout: it fails, releasing the 2
     * grants and (queued) w. Then w wakes and runs the queued acquires and releases.
     */
    static void lateGrants(ScenarioContext ctx) {
        WorkloadClient a = ctx.client(0);
        Random rnd = ctx.random();
        int[] order = ScriptSteps.shuffled(rnd, ctx.settings().nodes());
        int v = order[0], w = order[1];
        int[] cutTwo = {order[2], order[3]};
        ProxySet set = ProxySet.ofClient(a.id());
        int lateSeen = 0;
        try (FaultHandle slow = ctx.nemesis().latency(set, ToxicDirection.UPSTREAM, ms(150), ms(120), v)) {
            for (int round = 0; round < 40 && lateSeen == 0; round++) {
                Optional<Held> h = a.tryAcquire(ctx.ttl());
                h.ifPresent(a::release);
                Sleep.of(ms(60));
                lateSeen = grantsAfterRelease(ctx.history(), v);
            }
            Sleep.of(ms(300));   // the acquires still in transit land
            lateSeen = grantsAfterRelease(ctx.history(), v);
        }
        // on a transport that keeps one node's commands in order (the library's own) the release always follows
        // the acquire, so this happens only on one that reorders (an adapter's); either way no key may leak
        ctx.history().note(lateSeen + " lease value(s) seen on node " + v + " after their release had landed");
        long failedBefore = failedAcquires(ctx.history());
        try (FaultHandle stop = ctx.nemesis().pause(w); FaultHandle cut = ctx.nemesis().cut(set, cutTwo)) {
            for (int round = 0; round < 3; round++) {
                Optional<Held> h = a.tryAcquire(ctx.ttl());
                h.ifPresent(a::release);   // cannot happen with 2 of 5 nodes: the checkers will say so
            }
        }
        long failed = failedAcquires(ctx.history()) - failedBefore;
        ctx.check("rounds failed while node " + w + " slept", failed == 3, failed + " of 3 failed");
        Sleep.of(OBSERVE_AFTER_HEAL);
        Optional<Held> after = ctx.acquireWithin(a, ms(1000));
        ctx.check("the lock is free again after the late grants", after.isPresent(), "");
        after.ifPresent(a::release);
    }

    /** The largest delay phase 1 puts on a request (150 ms + 120 ms), plus scheduling slack. */
    private static final Duration MAX_DELAY = Duration.ofMillis(300);

    /** Lease values the ground truth saw on {@code node} when the release of their lease had surely landed there. */
    private static int grantsAfterRelease(History h, int node) {
        Map<String, Long> releasedAt = new HashMap<>();
        for (Event e : h.events()) {
            if (e.op() == Event.Op.RELEASE && e.type() == Event.Type.INVOKE) releasedAt.putIfAbsent(e.owner(), e.nanos());
        }
        Map<String, String> labelOf = new HashMap<>();
        h.ownerValues().forEach((label, value) -> labelOf.put(value, label));
        Set<String> late = new HashSet<>();
        for (NodeSample s : h.samples()) {
            if (s.node() != node || !s.answered() || s.value().isEmpty()) continue;
            String label = labelOf.get(s.value());
            Long rel = label == null ? null : releasedAt.get(label);
            if (rel != null && s.sentNanos() > rel + MAX_DELAY.toNanos()) late.add(s.value());
        }
        return late.size();
    }

    private static long failedAcquires(History h) {
        return h.events(e -> e.op() == Event.Op.ACQUIRE && e.type() == Event.Type.FAIL).size();
    }
}
