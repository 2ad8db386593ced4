package dev.redlock.chaos.scenario;

import static dev.redlock.chaos.scenario.ScriptSteps.SETUP;
import static dev.redlock.chaos.scenario.ScriptSteps.ms;

import dev.redlock.chaos.history.Write;
import dev.redlock.chaos.workload.Held;
import dev.redlock.chaos.workload.WorkloadClient;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;

/**
 * Scenarios of clients contending for one lock: plain contention with no fault (1), and a stale holder releasing
 * after another client acquired (12). Definitions next to their bodies; each body forces its interleaving explicitly
 * (shared steps in {@link ScriptSteps}).
 */
final class ContentionScripts {

    private ContentionScripts() {}

    /** The scenarios of this family, in catalogue order. */
    static List<Scenario> all() {
        return List.of(
                new Scenario("1", "contention", "no fault, 5 clients contending for one lock", Expectation.SAFE,
                        Settings.builder().ttl(ms(400)).clients(5).duration(ms(3000)).build(),
                        ContentionScripts::contention),
                new Scenario("12", "stale release", "stale holder releases after another client acquired",
                        Expectation.SAFE,
                        Settings.builder().ttl(ms(500)).clients(3).build(),
                        ContentionScripts::staleRelease));
    }

    // ---- 1 ----

    /** Heavy contention, no fault. */
    static void contention(ScenarioContext ctx) {
        ctx.runWorkload(ctx.settings().duration());
        long writes = ctx.history().writes(Write.Store.UNFENCED).size();
        ctx.check("the workload ran", writes >= 10, writes + " read-modify-write operations");
    }

    // ---- 12 ----

    /**
     * A acquires and pauses past its TTL; B acquires and writes; A wakes and releases (its stale release). B's keys
     * must survive (the release is token-checked), so C is still refused.
     */
    static void staleRelease(ScenarioContext ctx) {
        Random rnd = ctx.random();
        WorkloadClient a = ctx.client(0), b = ctx.client(1), c = ctx.client(2);
        for (int round = 0; round < ctx.settings().rounds(); round++) {
            Held ha = ScriptSteps.must(ctx.acquireWithin(a, SETUP), "A could not acquire");
            CountDownLatch bWrote = new CountDownLatch(1);
            CountDownLatch mayRelease = new CountDownLatch(1);
            AtomicReference<Held> bHeld = new AtomicReference<>();
            CompletableFuture<Optional<Held>> fb = ScriptSteps.secondHolder(ctx, b, rnd, bWrote, mayRelease, bHeld);
            ctx.nemesis().stallClient(a.id(), ctx.ttl().plusMillis(20), () -> bWrote.getCount() == 0,
                    Duration.ofSeconds(5));
            List<String> before = ctx.lockValues();
            if (!ha.lease().isValid()) a.noteLost(ha, "validity ran out during the pause; releasing anyway");
            a.release(ha);
            List<String> after = ctx.lockValues();
            long held = before.stream().filter(s -> !s.isEmpty()).count();
            long survived = IntStream.range(0, before.size())
                    .filter(i -> !before.get(i).isEmpty() && before.get(i).equals(after.get(i))).count();
            ctx.check("round " + round + ": B's keys survive A's stale release",
                    held >= ctx.settings().quorum() && survived == held,
                    survived + " of " + held + " keys survived; before " + before + " after " + after);
            Optional<Held> hc = c.tryAcquire(ctx.ttl());
            Held hb = bHeld.get();
            // on a very slow machine B's lease may have run out before C asked: then C may legitimately win
            boolean bStillValid = hb != null && hc.map(h -> h.acquiredNanos() < hb.deadlineNanos()).orElse(true)
                    && hb.lease().isValid();
            ctx.check("round " + round + ": C is refused while B holds", hc.isEmpty() || !bStillValid,
                    hc.isEmpty() ? "" : "C acquired after B's validity ended (slow machine), not a violation");
            hc.ifPresent(c::release);
            mayRelease.countDown();
            ScenarioContext.join(fb, Duration.ofSeconds(10));
        }
    }
}
