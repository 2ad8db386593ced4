package dev.redlock.examples.cron;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.redlock.Redlock;
import dev.redlock.RedlockConfig;
import dev.redlock.election.LeaderElection;
import dev.redlock.election.Term;
import dev.redlock.redisson.RedissonRedlock;
import dev.redlock.testkit.RedisCluster;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.redisson.config.Config;

/**
 * A cron job that must run on exactly one of several scheduler instances: the seed scenario "leader election with a
 * Redis lease", on {@link LeaderElection}.
 *
 * <p>Three scheduler instances (in one JVM here; each with its own Redis connections, {@link Redlock} and
 * {@link LeaderElection}, as separate processes would have) campaign for {@code cron-scheduler}. The leader starts
 * its job timer in {@code onElected} and stops it in {@code onRevoked}; before each run it reads
 * {@link LeaderElection#currentEpoch()} and writes the run to a fenced job log (the stand-in for a database table
 * that rejects a stale epoch). Each instance serves {@code GET /health/leader}:
 * {@code {"instanceId":"cron-a","leader":true,"epoch":3}} ({@code "epoch":null} on followers).
 *
 * <p>The demo lets the first leader run for a while, then kills it: its Redis connections die at once, nothing is
 * released, its HTTP server goes away. A follower takes over once the dead leader's lease expires (about
 * {@code leaseTtl + renewInterval}), with a greater epoch. At the end the job log is printed and checked: no tick ran
 * twice, epochs strictly increase from term to term, failover happened.
 *
 * <p>Run: {@code mvn -q -B install -DskipTests && mvn -q -B exec:java -pl redlock-examples
 * -Dexec.mainClass=dev.redlock.examples.cron.CronLeaderExample}. Options: {@code --nodes redis://h:p,redis://h:p,...}
 * uses running Redis masters instead of starting three embedded ones; add {@code --fresh} to mark brand-new nodes
 * fresh for the amnesia guard (see {@link Redlock#markNodesFresh()}), or wait out the restart quarantine.
 * {@code --http-port P} serves the instances' health endpoints on P, P+1, P+2 (default: free ports).
 */
public final class CronLeaderExample {
    static final String RESOURCE = "cron-scheduler";
    static final Duration TICK = Duration.ofMillis(200);
    static final Duration LEASE_TTL = Duration.ofSeconds(1);
    static final Duration RENEW_INTERVAL = Duration.ofMillis(250);
    static final Duration NODE_TIMEOUT = Duration.ofMillis(100);

    private CronLeaderExample() {}

    /** How the demo runs. */
    record Options(List<String> nodes, boolean markFresh, int httpPort, Duration runBeforeKill, Duration runAfterFailover) {
        static Options defaults() {
            return new Options(List.of(), false, 0, Duration.ofMillis(1500), Duration.ofMillis(1500));
        }

        static Options parse(String[] args) {
            Options o = defaults();
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--nodes" -> o = new Options(Arrays.stream(value(args, ++i).split(",")).map(String::trim)
                            .filter(s -> !s.isEmpty()).toList(), o.markFresh, o.httpPort, o.runBeforeKill, o.runAfterFailover);
                    case "--fresh" -> o = new Options(o.nodes, true, o.httpPort, o.runBeforeKill, o.runAfterFailover);
                    case "--http-port" -> o = new Options(o.nodes, o.markFresh, Integer.parseInt(value(args, ++i)),
                            o.runBeforeKill, o.runAfterFailover);
                    default -> throw new IllegalArgumentException("unknown option " + args[i]
                            + "; usage: [--nodes redis://host:port,...] [--fresh] [--http-port P]");
                }
            }
            return o;
        }

        private static String value(String[] args, int i) {
            if (i >= args.length) throw new IllegalArgumentException(args[i - 1] + " needs a value");
            return args[i];
        }
    }

    /** One execution of the job: which tick (wall-clock slot of {@link #TICK}), by whom, under which epoch. */
    record JobRun(long slot, String instanceId, long epoch, long nanos, boolean accepted) {}

    /**
     * The table the job writes, fenced: a run is accepted only if its epoch is not lower than the highest epoch
     * seen (the same leader writes many runs with one epoch), as {@code UPDATE ... WHERE fence <= ?} would.
     * Every attempt is kept, accepted or not, so the demo can check that the election alone kept runs unique.
     */
    static final class JobLog {
        private final List<JobRun> runs = new ArrayList<>();
        private long highestEpoch = Long.MIN_VALUE;

        synchronized boolean record(long slot, String instanceId, long epoch) {
            boolean accepted = epoch >= highestEpoch;
            if (accepted) highestEpoch = epoch;
            runs.add(new JobRun(slot, instanceId, epoch, System.nanoTime(), accepted));
            return accepted;
        }

        synchronized List<JobRun> runs() {
            return List.copyOf(runs);
        }
    }

    /** Called by {@link #run} at its checkpoints ("elected", "failover"), with every instance (dead ones included). */
    @FunctionalInterface
    interface Observer {
        void phase(String phase, List<SchedulerInstance> instances) throws Exception;
    }

    /** What a run produced; {@link #problems()} is empty when every check passed. */
    record Result(List<JobRun> runs, List<String> events, String killed, long killedEpoch, long killedAtNanos,
                  String successor, long successorEpoch, long failoverMillis) {

        /** Ticks run by more than one instance (or twice). */
        Map<Long, List<JobRun>> duplicateSlots() {
            return runs.stream().collect(Collectors.groupingBy(JobRun::slot, TreeMap::new, Collectors.toList()))
                    .entrySet().stream().filter(e -> e.getValue().size() > 1)
                    .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue, (a, b) -> a, TreeMap::new));
        }

        /** The terms seen in the job log, in tick order: instance and epoch of each leader's run of ticks. */
        List<JobRun> termsInTickOrder() {
            List<JobRun> terms = new ArrayList<>();
            runs.stream().sorted((a, b) -> Long.compare(a.slot(), b.slot())).forEach(r -> {
                JobRun last = terms.isEmpty() ? null : terms.get(terms.size() - 1);
                if (last == null || last.epoch() != r.epoch() || !last.instanceId().equals(r.instanceId())) terms.add(r);
            });
            return terms;
        }

        List<String> problems() {
            List<String> p = new ArrayList<>();
            if (runs.isEmpty()) p.add("the job never ran");
            if (!duplicateSlots().isEmpty()) p.add("ticks run more than once: " + duplicateSlots());
            long rejected = runs.stream().filter(r -> !r.accepted()).count();
            if (rejected > 0) p.add(rejected + " runs rejected by the fence (stale epoch)");
            List<JobRun> terms = termsInTickOrder();
            for (int i = 1; i < terms.size(); i++) {
                if (terms.get(i).epoch() <= terms.get(i - 1).epoch()) {
                    p.add("epochs do not strictly increase from term to term: " + terms);
                    break;
                }
            }
            if (successor == null || successor.equals(killed) || successorEpoch <= killedEpoch) {
                p.add("no failover to another instance with a greater epoch");
            }
            if (runs.stream().anyMatch(r -> r.instanceId().equals(killed) && r.nanos() > killedAtNanos)) {
                p.add("the killed instance ran the job after it died");
            }
            if (runs.stream().noneMatch(r -> r.instanceId().equals(successor))) p.add("the successor never ran the job");
            return p;
        }
    }

    public static void main(String[] args) throws Exception {
        Options options = Options.parse(args);
        Result result = run(options, System.out, (phase, instances) -> printHealth(phase, instances, System.out));
        List<String> problems = result.problems();
        System.out.println(problems.isEmpty() ? "all checks passed" : "CHECKS FAILED: " + problems);
        System.exit(problems.isEmpty() ? 0 : 1);
    }

    /**
     * Runs the whole scenario: start three instances, wait for a leader, let it run, kill it, wait for the
     * successor, let it run, stop. Starts (and stops) three embedded Redis nodes unless {@code options.nodes()}
     * names some. Everything it started is stopped before it returns or throws.
     */
    static Result run(Options options, PrintStream out, Observer observer) throws Exception {
        RedisCluster cluster = null;
        List<SchedulerInstance> instances = new ArrayList<>();
        try {
            List<String> uris = options.nodes();
            boolean fresh = options.markFresh();
            if (uris.isEmpty()) {
                cluster = RedisCluster.start(3);
                uris = cluster.uris();
                fresh = true;                               // brand-new nodes: nothing to quarantine
            }
            RedlockConfig config = RedlockConfig.builder().nodes(uris).nodeTimeout(NODE_TIMEOUT).build();
            out.println("nodes: " + config.nodes() + (cluster != null ? " (embedded)" : ""));
            out.printf("leaseTtl=%d ms, renewInterval=%d ms, tick=%d ms%n", LEASE_TTL.toMillis(),
                    RENEW_INTERVAL.toMillis(), TICK.toMillis());
            if (fresh) {
                try (Redlock admin = Redlock.create(config)) {
                    out.println("marked " + admin.markNodesFresh() + " brand-new nodes fresh (amnesia guard)");
                }
            }
            JobLog log = new JobLog();
            ConcurrentLinkedQueue<String> events = new ConcurrentLinkedQueue<>();
            for (String id : List.of("cron-a", "cron-b", "cron-c")) {
                int port = options.httpPort() == 0 ? 0 : options.httpPort() + instances.size();
                instances.add(SchedulerInstance.start(id, config, uris, port, log, events, out));
            }
            for (SchedulerInstance i : instances) out.println(i.id() + ": health at " + i.healthUri());

            SchedulerInstance first = awaitLeader(instances, Duration.ofSeconds(10));
            observer.phase("elected", instances);
            Thread.sleep(options.runBeforeKill().toMillis());

            first = awaitLeader(instances, Duration.ofSeconds(5));     // (still the leader, barring trouble)
            long killedEpoch = first.election().currentEpoch().orElse(-1);
            long killedAt = System.nanoTime();
            out.println(">>> killing the leader " + first.id() + " (epoch " + killedEpoch
                    + "): connections dropped, nothing released");
            first.kill();
            SchedulerInstance next = awaitLeader(instances, LEASE_TTL.plus(RENEW_INTERVAL).plusSeconds(5));
            long failoverMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedAt);
            long nextEpoch = next.election().currentEpoch().orElse(-1);
            out.println(">>> " + next.id() + " took over after " + failoverMillis + " ms, epoch " + nextEpoch);
            observer.phase("failover", instances);
            Thread.sleep(options.runAfterFailover().toMillis());

            // stop followers first, the leader last: no handover while shutting down
            instances.sort((a, b) -> Boolean.compare(a.election().isLeader(), b.election().isLeader()));
            for (SchedulerInstance i : instances) i.close();

            Result result = new Result(log.runs(), List.copyOf(events), first.id(), killedEpoch, first.diedAtNanos(), next.id(),
                    nextEpoch, failoverMillis);
            print(result, out);
            return result;
        } finally {
            for (SchedulerInstance i : instances) i.close();
            if (cluster != null) cluster.close();
        }
    }

    private static SchedulerInstance awaitLeader(List<SchedulerInstance> instances, Duration within)
            throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        while (System.nanoTime() < deadline) {
            for (SchedulerInstance i : instances) if (!i.isDead() && i.election().isLeader()) return i;
            Thread.sleep(5);
        }
        throw new IllegalStateException("no leader within " + within.toMillis() + " ms");
    }

    private static void print(Result r, PrintStream out) {
        long firstSlot = r.runs().stream().mapToLong(JobRun::slot).min().orElse(0);
        out.println("job runs (tick = " + TICK.toMillis() + " ms slot since the first run):");
        long previous = Long.MIN_VALUE;
        for (JobRun run : r.runs()) {
            if (previous != Long.MIN_VALUE && run.slot() > previous + 1) {
                out.printf("  tick %3d..%d: not run (no leader: the dead leader's lease had not expired yet)%n",
                        previous + 1 - firstSlot, run.slot() - 1 - firstSlot);
            }
            previous = run.slot();
            out.printf("  tick %3d  %-7s epoch %d%s%n", run.slot() - firstSlot, run.instanceId(), run.epoch(),
                    run.accepted() ? "" : "  REJECTED (stale epoch)");
        }
        out.println("terms in tick order: " + r.termsInTickOrder().stream()
                .map(t -> t.instanceId() + "@" + t.epoch()).collect(Collectors.joining(" -> ")));
        out.printf("%d runs, %d ticks run twice, failover %s -> %s in %d ms%n", r.runs().size(), r.duplicateSlots().size(),
                r.killed(), r.successor(), r.failoverMillis());
    }

    /** Queries every live instance's health endpoint and prints the answers. */
    static void printHealth(String phase, List<SchedulerInstance> instances, PrintStream out)
            throws IOException, InterruptedException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        for (SchedulerInstance i : instances) {
            if (i.isDead()) {
                out.println("[" + phase + "] " + i.id() + ": (dead)");
                continue;
            }
            HttpResponse<String> resp = http.send(HttpRequest.newBuilder(i.healthUri()).timeout(Duration.ofSeconds(2))
                    .GET().build(), HttpResponse.BodyHandlers.ofString());
            out.println("[" + phase + "] GET " + i.healthUri() + " -> " + resp.statusCode() + " " + resp.body());
        }
    }

    /**
     * One scheduler instance, as one process would be: its own Redis connections (so "kill" can drop them the way
     * a dying process does), {@link Redlock}, {@link LeaderElection}, job timer and health endpoint.
     */
    static final class SchedulerInstance implements AutoCloseable {
        private final String id;
        private final EventLoopGroup group;
        private final ExecutorService redissonExecutor;
        private final List<RedissonClient> clients;
        private final Redlock redlock;
        private final LeaderElection election;
        private final ScheduledExecutorService cron;
        private final HttpServer http;
        private final JobLog log;
        private final ConcurrentLinkedQueue<String> events;
        private final PrintStream out;
        private volatile ScheduledFuture<?> job;
        private volatile boolean dead;
        private volatile boolean closed;
        private volatile long diedAtNanos;
        private long lastSlot = Long.MIN_VALUE;         // cron thread only

        private SchedulerInstance(String id, RedlockConfig config, List<String> uris, int httpPort, JobLog log,
                                  ConcurrentLinkedQueue<String> events, PrintStream out) throws IOException {
            this.id = id;
            this.log = log;
            this.events = events;
            this.out = out;
            this.group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
            this.redissonExecutor = Executors.newFixedThreadPool(1);
            this.clients = new ArrayList<>();
            for (String uri : uris) clients.add(connect(uri, config.nodeTimeout(), group, redissonExecutor));
            this.redlock = RedissonRedlock.create(config, clients);
            this.election = LeaderElection.builder(redlock, RESOURCE).instanceId(id)
                    .leaseTtl(LEASE_TTL).renewInterval(RENEW_INTERVAL).build();
            this.cron = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, id + "-cron");
                t.setDaemon(true);
                return t;
            });
            this.http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), httpPort), 0);
            this.http.createContext("/health/leader", this::health);
        }

        /** {@code uris}: the nodes of {@code config}, unredacted (passwords included), in the same order. */
        static SchedulerInstance start(String id, RedlockConfig config, List<String> uris, int httpPort, JobLog log,
                                       ConcurrentLinkedQueue<String> events, PrintStream out) throws IOException {
            SchedulerInstance s = new SchedulerInstance(id, config, uris, httpPort, log, events, out);
            s.election.onElected(s::elected);
            s.election.onRevoked(s::revoked);
            s.http.start();
            s.election.start();
            return s;
        }

        String id() {
            return id;
        }

        LeaderElection election() {
            return election;
        }

        boolean isDead() {
            return dead;
        }

        /** When {@link #kill()} stopped its last job run (monotonic nanos). */
        long diedAtNanos() {
            return diedAtNanos;
        }

        URI healthUri() {
            InetSocketAddress a = http.getAddress();
            return URI.create("http://" + a.getHostString() + ":" + a.getPort() + "/health/leader");
        }

        /** {@code {"instanceId":"cron-a","leader":true,"epoch":3}}; one epoch read, so leader and epoch agree. */
        String healthJson() {
            OptionalLong epoch = election.currentEpoch();
            return "{\"instanceId\":\"" + jsonEscape(id) + "\",\"leader\":" + epoch.isPresent() + ",\"epoch\":"
                    + (epoch.isPresent() ? Long.toString(epoch.getAsLong()) : "null") + "}";
        }

        private void elected(Term term) {
            events.add(id + " elected epoch " + term.epoch());
            out.println("[" + id + "] elected, epoch " + term.epoch() + ": starting the job timer");
            long now = System.currentTimeMillis();
            long tick = TICK.toMillis();
            long untilNextSlot = tick - Math.floorMod(now, tick);
            ScheduledFuture<?> old = job;
            if (old != null) old.cancel(false);
            job = cron.scheduleAtFixedRate(this::tick, untilNextSlot, tick, TimeUnit.MILLISECONDS);
        }

        private void revoked(Term term) {
            ScheduledFuture<?> j = job;
            if (j != null) j.cancel(false);
            events.add(id + " revoked epoch " + term.epoch());
            if (!dead) out.println("[" + id + "] revoked, epoch " + term.epoch() + ": job timer stopped");
        }

        /** The job: only while leader, with the epoch as fencing token, once per tick slot. */
        private void tick() {
            OptionalLong epoch = election.currentEpoch();
            if (epoch.isEmpty()) return;                     // onRevoked may not have run yet
            long slot = Math.floorDiv(System.currentTimeMillis() + TICK.toMillis() / 2, TICK.toMillis());
            if (slot <= lastSlot) return;
            lastSlot = slot;
            log.record(slot, id, epoch.getAsLong());
        }

        private void health(HttpExchange ex) throws IOException {
            try {
                if (!"GET".equals(ex.getRequestMethod())) {
                    ex.getResponseHeaders().set("Allow", "GET");
                    ex.sendResponseHeaders(405, -1);
                    return;
                }
                byte[] body = healthJson().getBytes(StandardCharsets.UTF_8);
                ex.getResponseHeaders().set("Content-Type", "application/json");
                ex.sendResponseHeaders(200, body.length);
                try (OutputStream os = ex.getResponseBody()) {
                    os.write(body);
                }
            } finally {
                ex.close();
            }
        }

        /**
         * Dies like a process would: the job and the health endpoint stop, the Redis connections drop, and nothing
         * is released; the others must wait for the lease to expire. (The election and Redlock are closed last only
         * to free this JVM's threads: with the connections gone, their release cannot reach any node.)
         */
        void kill() {
            dead = true;
            cron.shutdownNow();
            try {
                // a tick already running finishes first: the process dies after it, not during it
                if (!cron.awaitTermination(5, TimeUnit.SECONDS)) out.println("[" + id + "] a tick did not stop in 5 s");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            diedAtNanos = System.nanoTime();
            http.stop(0);
            for (RedissonClient c : clients) c.shutdown(0, 0, TimeUnit.MILLISECONDS);
            close();
        }

        /** Graceful stop: leadership is released at once, so a follower can take over without waiting for the TTL. */
        @Override
        public void close() {
            if (closed) return;
            closed = true;
            election.close();
            cron.shutdownNow();
            http.stop(0);
            redlock.close();
            for (RedissonClient c : clients) if (!c.isShutdown()) c.shutdown(0, 2, TimeUnit.SECONDS);
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            redissonExecutor.shutdownNow();
        }

        private static RedissonClient connect(String uri, Duration nodeTimeout, EventLoopGroup group,
                                              ExecutorService executor) {
            Config c = new Config();
            c.setCodec(StringCodec.INSTANCE);
            c.setLazyInitialization(true);
            c.setEventLoopGroup(group);
            c.setExecutor(executor);
            int timeout = (int) Math.max(1, nodeTimeout.toMillis());
            c.useSingleServer().setAddress(uri).setTimeout(timeout).setConnectTimeout(Math.max(timeout, 1000))
                    .setRetryAttempts(0).setConnectionMinimumIdleSize(1).setConnectionPoolSize(4)
                    .setSubscriptionConnectionMinimumIdleSize(0).setSubscriptionConnectionPoolSize(1);
            return Redisson.create(c);
        }

        private static String jsonEscape(String s) {
            StringBuilder b = new StringBuilder(s.length());
            for (char ch : s.toCharArray()) {
                switch (ch) {
                    case '"' -> b.append("\\\"");
                    case '\\' -> b.append("\\\\");
                    default -> {
                        if (ch < 0x20) b.append(String.format("\\u%04x", (int) ch));
                        else b.append(ch);
                    }
                }
            }
            return b.toString();
        }
    }
}
