package dev.redlock.chaos.cli;

import dev.redlock.sim.simulator.SimulationResult;
import dev.redlock.sim.simulator.Simulator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code simulate}: the deterministic simulator (module redlock-testing) over many seeds, each a world of simulated
 * nodes and real clients on virtual time with a fault schedule; prints seeds per minute and every violation with
 * its seed, shrinks the first one's fault schedule and writes its trace, and prints the command that replays it.
 * Exit codes: 0 no violation, 1 at least one, 2 bad arguments.
 */
@Command(name = "simulate", mixinStandardHelpOptions = true,
        description = "Run the deterministic simulator (simulated nodes, the real client, virtual time) over seeds.")
final class SimulateCommand implements Callable<Integer> {
    @Option(names = "--seeds", description = "How many seeds (default: 1 with --seed, else 1000, or unbounded with --minutes).")
    Long seeds;

    @Option(names = "--seed", description = "The first seed (default: drawn from the clock, and printed).")
    Long seed;

    @Option(names = "--ops", defaultValue = "100", description = "Client operations per seed (default: ${DEFAULT-VALUE}).")
    int ops;

    @Option(names = "--minutes", description = "Stop after this many minutes (the seeds started finish).")
    Double minutes;

    @Option(names = "--threads", description = "Seeds run in parallel (default: the number of cores).")
    Integer threads;

    @Option(names = "--trace-dir", defaultValue = "simulation-traces", description = "Where trace files go (default: ${DEFAULT-VALUE}).")
    Path traceDir;

    @Option(names = "--stop-at-first", description = "Stop at the first violation (and print after how many seeds it came).")
    boolean stopAtFirst;

    @Option(names = "--without-amnesia-guard", description = "Every client's restartQuarantine = 0 (known unsafe: shows the simulator finding it).")
    boolean withoutAmnesiaGuard;

    @Option(names = "--uncapped-guesses", description = "Nodes write one-round token guesses uncapped (the chaos twins' switch).")
    boolean uncappedGuesses;

    @Override
    public Integer call() throws Exception {
        if (ops < 1) return bad("--ops must be >= 1, got " + ops);
        if (seeds != null && seeds < 1) return bad("--seeds must be >= 1, got " + seeds);
        if (minutes != null && !(minutes > 0)) return bad("--minutes must be > 0, got " + minutes);
        // the clients' own warnings (clock checks, quarantines) are the faults working as scheduled: not for the console
        System.setProperty("org.slf4j.simpleLogger.log.dev.redlock", "error");
        int cores = threads != null ? threads : Runtime.getRuntime().availableProcessors();
        if (cores < 1) return bad("--threads must be >= 1, got " + cores);
        Simulator sim = Simulator.of(ops);
        if (withoutAmnesiaGuard) sim = sim.withoutAmnesiaGuard();
        if (uncappedGuesses) sim = sim.uncappedGuesses();
        long first = seed != null ? seed : System.currentTimeMillis();
        long count = seeds != null ? seeds : seed != null && minutes == null ? 1 : minutes != null ? Long.MAX_VALUE : 1000;
        if (count == 1) return replay(sim, first);
        long deadline = minutes == null ? Long.MAX_VALUE : System.nanoTime() + (long) (minutes * 60e9);
        System.out.printf(Locale.ROOT, "[simulate] seeds from %d, %s, %d ops each, %d thread(s)%n", first,
                count == Long.MAX_VALUE ? "for " + minutes + " min" : count + " seed(s)", ops, cores);
        AtomicLong next = new AtomicLong();
        AtomicLong done = new AtomicLong();
        List<SimulationResult> failed = Collections.synchronizedList(new ArrayList<>());
        long start = System.nanoTime();
        Simulator s = sim;
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < cores; t++) {
            Thread w = new Thread(() -> {
                long i;
                while (System.nanoTime() < deadline && !(stopAtFirst && !failed.isEmpty())
                        && (i = next.getAndIncrement()) < count) {
                    SimulationResult r = s.run(first + i);
                    done.incrementAndGet();
                    if (r.failed()) {
                        if (failed.isEmpty()) {
                            System.out.printf(Locale.ROOT, "[simulate] first violation after %d seeds, %.1f s: seed %d%n",
                                    done.get(), (System.nanoTime() - start) / 1e9, r.seed());
                        }
                        failed.add(r);
                        System.out.println("[simulate] VIOLATION seed " + r.seed() + ": " + r.violations().get(0));
                    }
                }
            }, "simulate-" + t);
            w.start();
            workers.add(w);
        }
        long lastReport = start;
        while (workers.stream().anyMatch(Thread::isAlive)) {
            workers.get(0).join(1000);
            if (System.nanoTime() - lastReport > 10e9) {
                lastReport = System.nanoTime();
                report(done.get(), failed.size(), start, cores, "");
            }
        }
        for (Thread w : workers) w.join();
        report(done.get(), failed.size(), start, cores, "done: ");
        if (failed.isEmpty()) return 0;
        failed.sort((a, b) -> Long.compare(a.seed(), b.seed()));
        SimulationResult shrunk = sim.shrink(failed.get(0).seed());
        write(shrunk, true);
        for (SimulationResult r : failed) System.out.println("[simulate] failing seed " + r.seed() + "  replay: " + replayCommand(r.seed()));
        return 1;
    }

    private Integer replay(Simulator sim, long s) throws IOException {
        SimulationResult r = sim.traced().run(s);
        System.out.println("[simulate] seed " + s + ": " + r.world());
        for (String f : r.faults()) System.out.println("[simulate]   fault " + f);
        System.out.printf(Locale.ROOT, "[simulate] %d operations, %d leases, %.3f s virtual, %s%n", r.operations(),
                r.leases(), r.virtualNanos() / 1e9, r.failed() ? "VIOLATION " + r.violations() : "no violation");
        write(r, false);
        if (!r.failed()) return 0;
        write(sim.shrink(s), true);
        return 1;
    }

    private void write(SimulationResult r, boolean shrunk) throws IOException {
        Files.createDirectories(traceDir);
        Path file = traceDir.resolve("seed-" + r.seed() + (shrunk ? "-shrunk" : "") + ".trace");
        Files.writeString(file, r.trace());
        if (shrunk) {
            System.out.println("[simulate] seed " + r.seed() + " shrunk to " + r.faults().size() + " fault(s): " + r.faults());
            System.out.println("[simulate]   " + (r.failed() ? r.violations().get(0) : "(no longer fails)"));
        }
        System.out.println("[simulate] trace: " + file.toAbsolutePath() + "  replay: " + replayCommand(r.seed()));
    }

    private String replayCommand(long s) {
        return "java -jar redlock-chaos-cli/target/redlock-chaos.jar simulate --seed " + s + " --ops " + ops
                + (withoutAmnesiaGuard ? " --without-amnesia-guard" : "") + (uncappedGuesses ? " --uncapped-guesses" : "");
    }

    private static void report(long done, int failed, long start, int cores, String prefix) {
        double min = (System.nanoTime() - start) / 60e9;
        System.out.printf(Locale.ROOT, "[simulate] %s%d seeds, %d failed, %.1f s, %.0f seeds/min (%.0f per core)%n", prefix,
                done, failed, min * 60, done / min, done / min / cores);
    }

    private static int bad(String message) {
        System.err.println("simulate: " + message);
        return 2;
    }
}
