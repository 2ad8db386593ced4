package dev.redlock.chaos.scenario;

import dev.redlock.chaos.cluster.ProxySet;
import dev.redlock.chaos.history.Write;
import dev.redlock.chaos.nemesis.FaultHandle;
import dev.redlock.testkit.Sleep;
import eu.rekawek.toxiproxy.model.ToxicDirection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;

/**
 * The soak: not part of the main job (run it with {@code redlock-chaos run --soak 10m [--seed n]}). The contention
 * workload runs for the whole duration while a seeded nemesis mixes the fault families at random, one episode at a
 * time, never taking more than N - quorum nodes out (a restarted node counts as out until its quarantine ends): cut,
 * black hole, latency with jitter, SIGSTOP, kill -9 and restart (amnesia guard on). The claim is SAFE, judged by every
 * checker, the ground truth included; the seed replays the same schedule.
 */
@SuppressWarnings("try") // fault handles are opened for their heal-in-finally, not referenced
final class SoakScripts {
    private SoakScripts() {}

    /** The soak scenario for {@code duration}. */
    static Scenario soak(Duration duration) {
        return new Scenario("S", "soak", "random seeded mix of cut, black hole, latency, pause and kill-restart on at "
                + "most N - quorum nodes at a time, under the contention workload, for " + duration.toSeconds() + " s",
                Expectation.SAFE, Settings.builder().ttl(Duration.ofMillis(500)).clients(4).duration(duration).build(),
                SoakScripts::run, Needs.NOTHING.withProcessControl());
    }

    static void run(ScenarioContext ctx) {
        Duration total = ctx.settings().duration();
        CompletableFuture<Void> load = ctx.async("workload", () -> {
            ctx.runWorkload(total);
            return null;
        });
        Random rnd = new Random(ctx.random().nextLong());
        long end = System.nanoTime() + total.minusSeconds(1).toNanos();
        int n = ctx.settings().nodes();
        int spare = n - ctx.settings().quorum();
        int episodes = 0;
        while (System.nanoTime() < end && !load.isDone()) {
            Sleep.of(Duration.ofMillis(100 + rnd.nextInt(400)));
            int[] nodes = ScriptSteps.pickOthers(rnd, n, -1, 1 + rnd.nextInt(spare));
            Duration length = Duration.ofMillis(200 + rnd.nextInt(800));
            List<FaultHandle> open = new ArrayList<>();
            boolean restarted = false;
            try {
                switch (rnd.nextInt(5)) {
                    case 0 -> open.add(ctx.nemesis().cut(nodes));
                    case 1 -> open.add(ctx.nemesis().blackhole(ProxySet.MAIN, nodes));
                    case 2 -> {
                        Duration lat = Duration.ofMillis(20 + rnd.nextInt(120));
                        open.add(ctx.nemesis().latency(ProxySet.MAIN, ToxicDirection.UPSTREAM, lat, lat.dividedBy(2), nodes));
                        open.add(ctx.nemesis().latency(ProxySet.MAIN, ToxicDirection.DOWNSTREAM, lat, lat.dividedBy(2), nodes));
                    }
                    case 3 -> {
                        for (int v : nodes) open.add(ctx.nemesis().pause(v));
                    }
                    default -> {
                        for (int v : nodes) ctx.nemesis().killAndRestart(v);
                        restarted = true;
                    }
                }
                Sleep.of(length);
            } finally {
                for (FaultHandle h : open) h.close();
            }
            // a restarted node refuses to grant until its quarantine ends: it stays "out" until then
            if (restarted) Sleep.of(ctx.settings().restartQuarantine());
            episodes++;
        }
        ScenarioContext.join(load, total.plus(Duration.ofSeconds(30)));
        long writes = ctx.history().writes(Write.Store.UNFENCED).size();
        ctx.check("the workload ran through " + episodes + " fault episodes", writes >= 10 && episodes >= 1,
                writes + " read-modify-write operations");
    }
}
