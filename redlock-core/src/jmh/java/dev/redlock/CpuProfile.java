package dev.redlock;

import dev.redlock.testkit.RedisCluster;
import dev.redlock.testkit.RedisNode;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

/**
 * CPU time per acquire+release, by thread group of this JVM and in the redis-server processes: what costs CPU is far
 * less sensitive to the machine's load than latency. Starts its own nodes (marked fresh), runs three rounds of
 * {@code pairs} pairs and prints, per round, wall time and CPU microseconds per pair (thread CPU from
 * {@link ThreadMXBean}, user and system time per task from {@code /proc/self/task}, the servers' from
 * {@code /proc/<pid>/stat}), bytes allocated per pair by thread group (threads that ended in between are not
 * counted), fence phases and rounds so far, and node 0's {@code INFO commandstats} (an {@code info}
 * line there would mean the scripts' INFO fallback ran). Linux only. In package {@code dev.redlock} (the core's
 * {@code src/jmh}) to read the fence phases and rounds the context counts.
 *
 * <pre>
 * redlock-core/src/jmh/run cpu-profile MODE [PAIRS [CALLERS [FENCING [NODES]]]]
 *   MODE w1: one caller, blocking acquire+release; threads: CALLERS platform threads, blocking;
 *        async: CALLERS chains of acquireAsync then releaseAsync (defaults: 20000 pairs, 64 callers, fencing, 5 nodes)
 * </pre>
 */
public final class CpuProfile {
    public static void main(String[] args) throws Exception {
        String mode = args.length > 0 ? args[0] : "w1";
        int n = args.length > 1 ? Integer.parseInt(args[1]) : 20000;
        int callers = args.length > 2 ? Integer.parseInt(args[2]) : 64;
        boolean fencing = args.length <= 3 || Boolean.parseBoolean(args[3]);
        int nodes = args.length > 4 ? Integer.parseInt(args[4]) : 5;
        try (RedisCluster cluster = RedisCluster.start(nodes)) {
            try (Redlock r = Redlock.create(RedlockConfig.builder().nodes(cluster.uris()).build())) {
                r.markNodesFresh();
            }
            try (Redlock r = Redlock.create(RedlockConfig.builder().nodes(cluster.uris()).fencing(fencing).build())) {
                for (int round = 0; round < 3; round++) {
                    Snapshot before = Snapshot.take(cluster);
                    long t0 = System.nanoTime();
                    long pairs = switch (mode) {
                        case "w1" -> w1(r, n);
                        case "async" -> async(r, n, callers);
                        case "threads" -> threads(r, n, callers);
                        default -> throw new IllegalArgumentException(mode);
                    };
                    long wall = System.nanoTime() - t0;
                    Snapshot after = Snapshot.take(cluster);
                    System.out.printf("%s round %d: %d pairs, wall %.1f us/pair (%.0f pairs/s), fence phases %d, rounds %d%n",
                            mode, round, pairs, wall / 1e3 / pairs, pairs / (wall / 1e9), r.context().fencePhases(),
                            r.context().roundsStarted());
                    after.minus(before).forEach((k, v) -> {
                        if (k.startsWith("alloc:")) {
                            if (v / pairs >= 8) System.out.printf("   %-28s %8.0f B/pair%n", k, (double) v / pairs);
                        } else if (v / 1e3 / pairs >= 0.5) {
                            System.out.printf("   %-28s %8.1f us/pair%n", k, v / 1e3 / pairs);
                        }
                    });
                    System.out.println(cluster.node(0).command("INFO", "commandstats"));
                    cluster.node(0).command("CONFIG", "RESETSTAT");
                }
            }
        }
    }

    static long w1(Redlock r, int n) {
        Duration ttl = Duration.ofSeconds(10);
        for (int i = 0; i < n; i++) r.acquire("p:w1", ttl).release();
        return n;
    }

    static long threads(Redlock r, int n, int callers) throws InterruptedException {
        Duration ttl = Duration.ofSeconds(10);
        AtomicLong done = new AtomicLong();
        List<Thread> ts = new ArrayList<>();
        for (int c = 0; c < callers; c++) {
            String res = "p:t" + c;
            Thread t = new Thread(() -> {
                while (done.incrementAndGet() <= n) r.acquire(res, ttl).release();
            }, "caller-" + c);
            ts.add(t);
            t.start();
        }
        for (Thread t : ts) t.join();
        return n;
    }

    static long async(Redlock r, int n, int callers) throws InterruptedException {
        Duration ttl = Duration.ofSeconds(10);
        AtomicLong started = new AtomicLong();
        AtomicLong failures = new AtomicLong();
        CountDownLatch finished = new CountDownLatch(callers);
        for (int c = 0; c < callers; c++) {
            String res = "p:a" + c;
            loop(r, res, ttl, started, n, failures, finished);
        }
        finished.await();
        if (failures.get() > 0) System.out.println("failures " + failures.get());
        return n;
    }

    private static void loop(Redlock r, String res, Duration ttl, AtomicLong started, int n, AtomicLong failures,
                             CountDownLatch finished) {
        if (started.incrementAndGet() > n) {
            finished.countDown();
            return;
        }
        r.acquireAsync(res, ttl).thenCompose(l -> l.releaseAsync()).whenComplete((x, e) -> {
            if (e != null) failures.incrementAndGet();
            loop(r, res, ttl, started, n, failures, finished);
        });
    }

    record Snapshot(Map<String, Long> cpu) {
        static Snapshot take(RedisCluster cluster) throws IOException {
            Map<String, Long> m = new TreeMap<>();
            ThreadMXBean mx = ManagementFactory.getThreadMXBean();
            for (ThreadInfo ti : mx.getThreadInfo(mx.getAllThreadIds())) {
                if (ti == null) continue;
                long c = mx.getThreadCpuTime(ti.getThreadId());
                if (c < 0) continue;
                String name = ti.getThreadName().replaceAll("[0-9]+", "#");
                m.merge("jvm:" + name, c, Long::sum);
                if (mx instanceof com.sun.management.ThreadMXBean sun) {
                    long b = sun.getThreadAllocatedBytes(ti.getThreadId());
                    if (b >= 0) {
                        m.merge("alloc:" + name, b, Long::sum);
                        m.merge("alloc: all threads", b, Long::sum);
                    }
                }
            }
            m.put("jvm process (all threads)", procCpu(ProcessHandle.current().pid()));
            try (var tasks = Files.list(Path.of("/proc/self/task"))) {
                for (Path t : (Iterable<Path>) tasks::iterator) {
                    String comm = Files.readString(t.resolve("comm")).trim().replaceAll("[0-9]+", "#");
                    String st = Files.readString(t.resolve("stat"));
                    String[] f = st.substring(st.lastIndexOf(')') + 2).split(" ");
                    m.merge("task:" + comm + " user", Long.parseLong(f[11]) * 10_000_000L, Long::sum);
                    m.merge("task:" + comm + " sys", Long.parseLong(f[12]) * 10_000_000L, Long::sum);
                }
            } catch (IOException | RuntimeException e) {
                // a task ended while listing
            }
            long servers = 0;
            for (RedisNode node : cluster.nodes()) servers += procCpu(node.pid());
            m.put("redis-servers", servers);
            return new Snapshot(m);
        }

        Map<String, Long> minus(Snapshot o) {
            Map<String, Long> d = new TreeMap<>();
            cpu.forEach((k, v) -> {
                long diff = v - o.cpu.getOrDefault(k, 0L);
                if (diff > 0) d.put(k, diff);
            });
            return d;
        }
    }

    /** utime + stime of a process, in ns (USER_HZ = 100). */
    static long procCpu(long pid) throws IOException {
        String s = Files.readString(Path.of("/proc/" + pid + "/stat"));
        String[] f = s.substring(s.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 10_000_000L;
    }
}
