package dev.redlock.sim;

import dev.redlock.internal.Scripts;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import org.luaj.vm2.LuaString;

/**
 * How fast the model runs the library's scripts (a measurement, not a test: it prints numbers and asserts nothing
 * about time; rates are per second of the measuring thread's CPU time, so other load on the machine distorts them
 * less). Run: {@code mvn -q -pl redlock-testing test-compile exec:java [-Dexec.args="seconds threads"]}.
 *
 * <ul>
 *   <li>scripts: ACQUIRE then RELEASE by EVALSHA on one node, arguments already in the node's form;</li>
 *   <li>rounds: one client, five nodes, EVALSHA ACQUIRE to all five through {@link SimNetwork} (delays, replies
 *       completing futures), then RELEASE to all five; the loop runs until idle;</li>
 *   <li>both again on {@code threads} threads, each its own simulation (as parallel seeds would run).</li>
 * </ul>
 */
public final class SimSpeed {
    private SimSpeed() {}

    public static void main(String[] args) throws Exception {
        double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 5;
        int threads = args.length > 1 ? Integer.parseInt(args[1]) : 2;
        System.out.printf(Locale.ROOT, "warm-up...%n");
        scripts(Math.max(3, seconds / 2));   // LuaJ's interpreter loop takes seconds to be JIT-compiled
        rounds(Math.max(3, seconds / 2));
        System.out.printf(Locale.ROOT, "one thread, scripts: %,.0f script executions per CPU-second (ACQUIRE+RELEASE pairs: half)%n", scripts(seconds));
        double rounds = rounds(seconds);
        System.out.printf(Locale.ROOT, "one thread, rounds:  %,.0f rounds per CPU-second of 5 nodes x (ACQUIRE + RELEASE) = %,.0f script executions%n",
                rounds, rounds * 10);
        double seeds = seeds(seconds);
        System.out.printf(Locale.ROOT, "one thread, seeds:   %,.0f seeds per CPU-second (new world of 5 nodes, 100 rounds with a fault"
                + " every 10) = %,.0f seeds/min per core%n", seeds, seeds * 60);
        double[] parallel = new double[threads];
        List<Thread> ts = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            int k = i;
            Thread t = new Thread(() -> parallel[k] = rounds(seconds));
            ts.add(t);
            t.start();
        }
        for (Thread t : ts) t.join();
        double total = 0;
        for (double p : parallel) total += p;
        System.out.printf(Locale.ROOT, "%d threads, rounds:  %,.0f rounds per CPU-second in all = %,.0f script executions/s when each thread has a core%n", threads, total, total * 10);
    }

    private static final java.lang.management.ThreadMXBean CPU = java.lang.management.ManagementFactory.getThreadMXBean();

    /** Per second of this thread's CPU time (steadier than wall time on a shared machine), else of wall time. */
    private static double rate(long count, long wallStart, long cpuStart) {
        long cpu = CPU.isCurrentThreadCpuTimeSupported() ? CPU.getCurrentThreadCpuTime() - cpuStart : 0;
        long wall = System.nanoTime() - wallStart;
        return count / ((cpu > 0 ? cpu : wall) / 1e9);
    }

    private static long cpuNow() {
        return CPU.isCurrentThreadCpuTimeSupported() ? CPU.getCurrentThreadCpuTime() : 0;
    }

    /** ACQUIRE+RELEASE executions per CPU-second on one node, for {@code seconds}. */
    static double scripts(double seconds) {
        SimScheduler time = new SimScheduler(1);
        SimNode node = SimNode.create(time, "n");
        String acquire = (String) node.command("SCRIPT", "LOAD", LibraryScripts.source("ACQUIRE"));
        String release = (String) node.command("SCRIPT", "LOAD", LibraryScripts.source("RELEASE"));
        Session s = new Session();
        LuaString[][] acquires = new LuaString[64][];
        LuaString[][] releases = new LuaString[64][];
        for (int i = 0; i < 64; i++) {
            acquires[i] = Replies.args("EVALSHA", acquire, "3", "lock:" + i, "fence:" + i, "__node", "owner" + i, "30000", "0", "0", "100000", "600000", "", "120000");
            releases[i] = Replies.args("EVALSHA", release, "1", "lock:" + i, "owner" + i, "wake");
        }
        long end = System.nanoTime() + (long) (seconds * 1e9);
        long n = 0;
        long start = System.nanoTime();
        long cpu = cpuNow();
        while (System.nanoTime() < end) {
            for (int i = 0; i < 64; i++) {
                check(node.execute(s, acquires[i]));
                node.execute(s, releases[i]);
            }
            n += 128;
        }
        return rate(n, start, cpu);
    }

    /** Five-node rounds per CPU-second through the simulated network, for {@code seconds}. */
    static double rounds(double seconds) {
        SimScheduler time = new SimScheduler(2);
        SimNetwork net = new SimNetwork(time);
        List<SimTransport> transports = new ArrayList<>();
        SimClient client = net.client("c");
        for (int i = 0; i < 5; i++) transports.add(client.transport(net.attach(SimNode.create(time, "n" + i))));
        String acquireSrc = LibraryScripts.source("ACQUIRE");
        String releaseSrc = LibraryScripts.source("RELEASE");
        for (SimTransport t : transports) {
            t.command("SCRIPT", "LOAD", acquireSrc);
            t.command("SCRIPT", "LOAD", releaseSrc);
        }
        time.runUntilIdle();
        String acquire = Scripts.sha1(acquireSrc);
        String release = Scripts.sha1(releaseSrc);
        long end = System.nanoTime() + (long) (seconds * 1e9);
        long start = System.nanoTime();
        long cpu = cpuNow();
        long rounds = 0;
        while (System.nanoTime() < end) {
            String owner = "owner" + rounds;
            String lock = "lock:" + (rounds & 63);
            List<CompletableFuture<Object>> replies = new ArrayList<>(5);
            for (SimTransport t : transports) {
                replies.add(t.command("EVALSHA", acquire, "3", lock, "fence:" + lock, "__node", owner, "30000", "0", "0", "100000", "600000", "", "120000"));
            }
            time.runUntilIdle();
            for (CompletableFuture<Object> r : replies) check(((List<?>) r.join()).get(0));
            for (SimTransport t : transports) t.command("EVALSHA", release, "1", lock, owner, "wake");
            time.runUntilIdle();
            rounds++;
        }
        return rate(rounds, start, cpu);
    }

    /**
     * Whole seeds per CPU-second: a new simulation (scheduler, network with random delays, 5 nodes with AOF
     * everysec, one client), then 100 rounds of ACQUIRE to all five and RELEASE to all five, the first by EVALSHA
     * falling back to EVAL on NOSCRIPT as the library does, with a seeded fault every 10 rounds (a reset, a
     * partition healed 50 ms later, a kill and restart, a pause and resume, a clock step).
     */
    static double seeds(double seconds) {
        String acquireSrc = LibraryScripts.source("ACQUIRE");
        String releaseSrc = LibraryScripts.source("RELEASE");
        String acquire = Scripts.sha1(acquireSrc);
        String release = Scripts.sha1(releaseSrc);
        long end = System.nanoTime() + (long) (seconds * 1e9);
        long start = System.nanoTime();
        long cpu = cpuNow();
        long seeds = 0;
        while (System.nanoTime() < end) {
            SimScheduler time = new SimScheduler(seeds);
            SimNetwork net = new SimNetwork(time);
            net.defaultDelay(LinkDelay.uniform(java.time.Duration.ofNanos(50_000), java.time.Duration.ofNanos(500_000)));
            SimClient client = net.client("c");
            List<SimNode> nodes = new ArrayList<>();
            List<SimTransport> transports = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                SimNode n = net.attach(SimNode.builder(time, "n" + i).persistence(Persistence.AOF_EVERYSEC).build());
                nodes.add(n);
                transports.add(client.transport(n));
            }
            for (int round = 0; round < 100; round++) {
                if (round % 10 == 9) fault(time, net, client, nodes.get(time.random().nextInt(5)));
                String owner = "owner" + round;
                for (SimTransport t : transports) {
                    t.command("EVALSHA", acquire, "3", "lock", "fence", "__node", owner, "30000", "0", "0", "100000", "600000", "", "120000")
                            .exceptionallyCompose(e -> String.valueOf(e.getMessage()).startsWith("NOSCRIPT")
                                    ? t.command("EVAL", acquireSrc, "3", "lock", "fence", "__node", owner, "30000", "0", "0", "100000", "600000", "", "120000")
                                    : CompletableFuture.failedFuture(e));
                }
                time.runFor(java.time.Duration.ofMillis(5));
                for (SimTransport t : transports) {
                    t.command("EVALSHA", release, "1", "lock", owner, "wake")
                            .exceptionallyCompose(e -> t.command("EVAL", releaseSrc, "1", "lock", owner, "wake"));
                }
                time.runFor(java.time.Duration.ofMillis(5));
            }
            if (!time.failures().isEmpty()) throw new IllegalStateException("seed " + seeds + ": " + time.failures());
            seeds++;
        }
        return rate(seeds, start, cpu);
    }

    private static void fault(SimScheduler time, SimNetwork net, SimClient client, SimNode node) {
        switch (time.random().nextInt(5)) {
            case 0 -> net.reset(client, node);
            case 1 -> {
                net.partition(client, node);
                time.after(java.time.Duration.ofMillis(50), () -> net.heal(client, node));
            }
            case 2 -> {
                node.kill();
                time.after(java.time.Duration.ofMillis(20), node::restart);
            }
            case 3 -> {
                node.pause();
                time.after(java.time.Duration.ofMillis(20), node::resume);
            }
            default -> node.clockOffset(java.time.Duration.ofMillis(time.random().nextInt(200) - 100));
        }
    }

    private static void check(Object reply) {
        if (reply instanceof ErrorReply e) throw new IllegalStateException(e.text());
    }
}
