package dev.redlock.sim.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * The build's share of the simulator: a few thousand seeds (property {@code redlock.sim.seeds}, default 3,000, from
 * seed {@code redlock.sim.firstSeed}, default 1) of 100 operations each on the correct library, on every core, and
 * not one violation. The same as {@code redlock-chaos.jar simulate --seeds 3000 --seed 1}; a failure names the seed
 * and its replay command.
 */
class SimulatorSeedsTest {
    private static final int OPS = 100;

    @Test
    void theLibraryBreaksNoPropertyOverThousandsOfSeeds() throws Exception {
        int seeds = Integer.getInteger("redlock.sim.seeds", 3000);
        long first = Long.getLong("redlock.sim.firstSeed", 1L);
        int threads = Math.max(1, Runtime.getRuntime().availableProcessors());
        Simulator sim = Simulator.of(OPS);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<String> failed = new ArrayList<>();
        long leases = 0;
        long started = System.nanoTime();
        try {
            List<Future<SimulationResult>> runs = new ArrayList<>();
            for (int i = 0; i < seeds; i++) {
                long seed = first + i;
                runs.add(pool.submit(() -> sim.run(seed)));
            }
            for (Future<SimulationResult> f : runs) {
                SimulationResult r = f.get();
                leases += r.leases();
                if (r.failed()) {
                    failed.add("seed " + r.seed() + " " + r.violations() + " (replay: java -jar "
                            + "redlock-chaos-cli/target/redlock-chaos.jar simulate --seed " + r.seed() + ")");
                }
            }
        } finally {
            pool.shutdownNow();
        }
        double s = (System.nanoTime() - started) / 1e9;
        System.out.printf(java.util.Locale.ROOT, "[simulator] %d seeds from %d, %d leases, %d failed, %.1f s on %d threads%n",
                seeds, first, leases, failed.size(), s, threads);
        assertEquals(List.of(), failed);
        assertTrue(leases > seeds, "the workload won leases: " + leases + " over " + seeds + " seeds");
    }
}
