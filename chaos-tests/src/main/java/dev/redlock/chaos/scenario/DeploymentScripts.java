package dev.redlock.chaos.scenario;

import static dev.redlock.chaos.scenario.ScriptSteps.SETUP;
import static dev.redlock.chaos.scenario.ScriptSteps.ms;

import dev.redlock.Preflight;
import dev.redlock.RedlockConfig;
import dev.redlock.RedlockException;
import dev.redlock.chaos.cluster.ChaosCluster;
import dev.redlock.chaos.cluster.FaketimeServer;
import dev.redlock.chaos.cluster.ProxySet;
import dev.redlock.chaos.history.Event;
import dev.redlock.chaos.history.History;
import dev.redlock.chaos.nemesis.ClockMode;
import dev.redlock.chaos.nemesis.FaultHandle;
import dev.redlock.chaos.workload.Held;
import dev.redlock.chaos.workload.Reads;
import dev.redlock.chaos.workload.WorkloadClient;
import dev.redlock.testkit.RedisProcess;
import dev.redlock.testkit.Sleep;
import eu.rekawek.toxiproxy.Proxy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.stream.IntStream;

/**
 * Scenarios of the Redis deployments people run, definitions next to their bodies: restarts that reload persisted
 * state (an RDB snapshot, AOF {@code everysec}), a failover to a lagging replica, eviction under memory pressure,
 * a node restarted with its clock behind, and clients with different restart quarantines. Each forces its
 * interleaving explicitly, like the core families ({@link AmnesiaScripts} and the others).
 */
@SuppressWarnings("try") // fault handles are opened for their heal-in-finally, not referenced
final class DeploymentScripts {
    /** Kills and restarts a node, and partitions client 0 alone (its own proxies). */
    private static final Needs RESTART = Needs.NOTHING.withProcessControl().withOwnProxies();

    private DeploymentScripts() {}

    /** The scenarios of this family, in order. */
    static List<Scenario> all() {
        Settings guarded = Settings.builder().ttl(ms(600)).ownProxies(Set.of(0)).build();
        return List.of(
                new Scenario("d1a", "RDB restart", "node of the holder's majority killed -9 and restarted from an RDB "
                        + "snapshot taken before the holder acquired (marker and fences come back, the lock does not); "
                        + "guard on", Expectation.SAFE, guarded, ctx -> rdbRestart(ctx, false),
                        RESTART.withFixed(AmnesiaScripts.RESTART_ROUNDS, Knob.TTL, Knob.RESTART_QUARANTINE)),
                new Scenario("d1b", "RDB restart, identity check off", "as d1a, and the harness rewrites the restarted "
                        + "node's marker to the new process's identity (what a library without the identity check sees)",
                        Expectation.VIOLATION, guarded, ctx -> rdbRestart(ctx, true), RESTART),
                new Scenario("d2", "AOF everysec restart", "nodes with appendfsync everysec; node of the holder's "
                        + "majority killed -9 right after the acknowledged acquire and restarted at once; guard on",
                        Expectation.SAFE, guarded.toBuilder().aof(true).build(),
                        ctx -> {
                            for (RedisProcess n : ctx.cluster().nodes()) n.command("CONFIG", "SET", "appendfsync", "everysec");
                            ctx.history().note("every node: appendonly yes, appendfsync everysec");
                            AmnesiaScripts.amnesia(ctx, AmnesiaScripts.Restart.IMMEDIATE, false);
                        }, RESTART.withFixed(AmnesiaScripts.RESTART_ROUNDS, Knob.TTL, Knob.RESTART_QUARANTINE)),
                new Scenario("d3", "failover to a lagging replica", "a real replica of a node of the holder's majority, "
                        + "its replication link cut before the holder acquired; the node fails over to it (promoted, the "
                        + "node's proxies re-pointed)", Expectation.SAFE, guarded.toBuilder().rounds(1).build(),
                        DeploymentScripts::failover, RESTART),
                new Scenario("d4a", "eviction, preflight OFF", "maxmemory + volatile-lru on every node; memory "
                        + "pressure evicts the holder's key on a node of its majority; clients with Preflight.OFF",
                        Expectation.VIOLATION, Settings.builder().ttl(ms(800)).restartQuarantine(Duration.ZERO)
                                .ownProxies(Set.of(0)).build(), DeploymentScripts::eviction, Needs.NOTHING.withOwnProxies()),
                new Scenario("d4b", "eviction, preflight STRICT", "the same nodes; a client with the default "
                        + "Preflight.STRICT", Expectation.REFUSED,
                        Settings.builder().ttl(ms(800)).restartQuarantine(Duration.ZERO).build(),
                        // reconfigures the nodes' memory: only nodes the harness started
                        DeploymentScripts::evictionRefused, Needs.NOTHING.withProcessControl()),
                new Scenario("d5", "clock behind after restart", "a node restarted with its clock 5 s behind the "
                        + "others (libfaketime; simulated without it) under a workload; guard on", Expectation.SAFE,
                        Settings.builder().ttl(ms(500)).clockNode(2).duration(ms(1500)).build(),
                        DeploymentScripts::clockBehind, Needs.NOTHING.withProcessControl().withFixed("a clock 5 s "
                                + "behind must exceed what preflight tolerates ((restartQuarantine - margin) / 2)",
                                Knob.TTL, Knob.RESTART_QUARANTINE)),
                new Scenario("d6", "mixed quarantines", "holder's group: restartQuarantine 2 s, TTL 1 s; the other "
                        + "group: 300 ms, TTL 300 ms (per round a new E asks first after the restart, a new B later); a "
                        + "node of the holder's majority restarted without persistence",
                        Expectation.SAFE, Settings.builder().ttl(ms(1000)).ownProxies(Set.of(0)).build(),
                        DeploymentScripts::mixedQuarantines, RESTART.withFixed("two client groups with their own "
                                + "TTLs and quarantines are its subject", Knob.TTL, Knob.RESTART_QUARANTINE)),
                new Scenario("d7", "fences after a loss", "nodes marked fresh; A's token written to a majority "
                        + "{v, x, y}; v then loses the resource's fence entry (round 0: as after its retention or an "
                        + "eviction, marker kept) or its memory (round 1: restarted without persistence, quarantine "
                        + "waited out); a new client that reaches only v and the two other nodes must get a higher "
                        + "token", Expectation.SAFE, guarded, DeploymentScripts::fencesAfterALoss,
                        RESTART.withFixed(AmnesiaScripts.RESTART_ROUNDS, Knob.TTL, Knob.RESTART_QUARANTINE)));
    }

    // ---- d1a, d1b ----

    /**
     * Tokens are issued on every node; node v's snapshot is taken (SAVE); A acquires on a majority M containing v
     * (tokens written after the snapshot); v is killed -9 and restarted: it reloads the snapshot, with its marker and
     * older fences, without A's key. B asks while A holds. With the identity check, v's marker names the old
     * process: v is quarantined and B is refused. Without it (the twin), B wins on v + the other two, with a token
     * from the old fences: both write, the higher token first, so the lower one is the stale write. A round whose
     * restart left B too little of A's lease to ask in is run again ({@link ScriptSteps#round}).
     */
    static void rdbRestart(ScenarioContext ctx, boolean identityCheckOff) {
        Random rnd = ctx.random();
        WorkloadClient a = ctx.client(0), b = ctx.client(1);
        int n = ctx.settings().nodes();
        for (int r = 0; r < ctx.settings().rounds(); r++) {
            int round = r;
            ScriptSteps.round(ctx, round, () -> {
                int v = rnd.nextInt(n);
                int[] others = ScriptSteps.pickOthers(rnd, n, v, n - ctx.settings().quorum());
                for (int i = 0; i < 2; i++) {
                    Held h = ScriptSteps.must(ctx.acquireWithin(a, SETUP), "A could not acquire");
                    a.write(h, a.read());
                    a.release(h);
                }
                RedisProcess victim = ctx.cluster().node(v);
                victim.command("SAVE");
                ctx.history().note("round " + round + ": snapshot of node " + v + " taken (SAVE)");
                for (int i = 0; i < 2; i++) {   // tokens after the snapshot, on the majority only
                    Held h = ScriptSteps.acquireOnMajority(ctx, a, others);
                    a.write(h, a.read());
                    a.release(h);
                }
                Held ha = ScriptSteps.acquireOnMajority(ctx, a, others);
                ctx.nemesis().killAndRestart(v);
                ctx.cluster().awaitReachable(ProxySet.MAIN, v, SETUP);
                if (identityCheckOff) {
                    String run = victim.runId();
                    String rid = victim.info("replication", "master_replid");
                    victim.command("HSET", ScenarioRunner.KEY_PREFIX + "__node", "run", run, "rid", rid);
                    ctx.history().note("round " + round + ": identity check off: node " + v + "'s marker rewritten to "
                            + "run_id " + run + " and replication id " + rid + " (the reloaded snapshot named the old "
                            + "process)");
                }
                secondHolderWhileAHolds(ctx, a, ha, b, identityCheckOff, round, ctx.ttl(), ctx.ttl());
            });
        }
    }

    /**
     * B asks while A still holds. When a second holder is expected, both write (the higher token first, so the other
     * is the stale write); else B must be refused, A writes, and B acquires once A released and the restarted node's
     * quarantine passed.
     *
     * @throws ScriptSteps.TooLate when the set-up left B too little of A's lease to ask in (A's lease released)
     */
    static void secondHolderWhileAHolds(ScenarioContext ctx, WorkloadClient a, Held ha, WorkloadClient b,
                                                boolean expectSecondHolder, int round, Duration ttlB, Duration patienceTtl) {
        Random rnd = ctx.random();
        long until = ScriptSteps.whileAHolds(a, ha, b);
        Optional<Held> hb = b.acquire(ttlB, until, new Random(rnd.nextLong()), Duration.ofMillis(5), Duration.ofMillis(3));
        if (expectSecondHolder) {
            ctx.check("round " + round + ": B acquired while A held", hb.isPresent(), "");
        } else {
            ctx.check("round " + round + ": B refused while A held", hb.isEmpty(),
                    hb.map(h -> "B got token " + h.token() + ", A holds " + ha.token()).orElse(""));
        }
        List<Held> holders = new ArrayList<>(List.of(ha));
        hb.ifPresent(holders::add);
        holders.sort(Comparator.comparingLong(Held::token).reversed());
        for (Held h : holders) {
            WorkloadClient c = h == ha ? a : b;
            if (h.lease().isValid()) c.write(h, c.read());
            else c.noteLost(h, "validity ran out before the write");
        }
        a.release(ha);
        hb.ifPresent(b::release);
        if (hb.isEmpty()) {
            Duration patience = patienceTtl.multipliedBy(3).plus(ctx.settings().restartQuarantine());
            Held later = ScriptSteps.must(b.acquire(ttlB, History.now() + patience.toNanos(), new Random(rnd.nextLong()),
                    Duration.ofMillis(5), Duration.ofMillis(3)), "B could not acquire after A released");
            b.write(later, b.read());
            b.release(later);
        }
        Sleep.of(Duration.ofMillis(50));
    }

    // ---- d3 ----

    /**
     * A real replica R of node v, replicating through a proxy of its own; once in sync (link up, R's replication
     * offset at v's, marker and fences copied) the link is cut, so R lags. A acquires on a majority containing v. v
     * fails over to R: R is promoted and v's proxies are re-pointed to it. R's marker names v's process, not R's: R
     * is a new identity and is quarantined, so B is refused while A holds. v's {@code repl-diskless-sync-delay} is set
     * to 0 first: from Redis 7.0 a master syncs diskless and waits 5 s by default for more replicas to join. An
     * attempt whose failover left B too little of A's lease is run again with a new replica, v's proxies led back
     * to its original process first.
     */
    static void failover(ScenarioContext ctx) {
        Random rnd = ctx.random();
        int n = ctx.settings().nodes();
        int v = rnd.nextInt(n);
        int[] others = ScriptSteps.pickOthers(rnd, n, v, n - ctx.settings().quorum());
        RedisProcess master = ctx.cluster().node(v);
        ScriptSteps.round(ctx, 0, () -> {
            if (ctx.servedBy(v) != master) {   // a repeated attempt: v's proxies still lead to the last replica
                ctx.nemesis().failover(v, master);   // back to the original process, for another attempt
                ctx.failedOver(v, master);
            }
            failoverOnce(ctx, v, others, master);
        });
    }

    /** One attempt of {@link #failover}, with a replica of its own. */
    private static void failoverOnce(ScenarioContext ctx, int v, int[] others, RedisProcess master) {
        WorkloadClient a = ctx.client(0), b = ctx.client(1);
        RedisProcess replica = ctx.cluster().startNode(false);
        Proxy link = null;
        try {
            link = ctx.cluster().toxiproxy().client().createProxy("rl-repl-" + replica.port(),
                    ctx.cluster().toxiproxy().listenHost() + ":0",
                    ctx.cluster().toxiproxy().upstreamHost() + ":" + master.port());
            String listen = link.getListen();
            master.command("CONFIG", "SET", "repl-diskless-sync-delay", "0");
            replica.command("REPLICAOF", listen.substring(0, listen.lastIndexOf(':')),
                    listen.substring(listen.lastIndexOf(':') + 1));
            for (int i = 0; i < 2; i++) {
                Held h = ScriptSteps.must(ctx.acquireWithin(a, SETUP), "A could not acquire");
                a.write(h, a.read());
                a.release(h);
            }
            Replication.awaitSync(master, replica, ScenarioRunner.KEY_PREFIX + "__node", "node " + v);
            link.disable();
            ctx.history().note("replica on port " + replica.port() + " of node " + v + " in sync ("
                    + Replication.state(master, replica) + "); replication link cut");
            Held ha = ScriptSteps.acquireOnMajority(ctx, a, others);
            ctx.nemesis().failover(v, replica);
            ctx.failedOver(v, replica);   // the ground truth follows the clients to the promoted replica
            ctx.cluster().awaitReachable(ProxySet.MAIN, v, SETUP);
            secondHolderWhileAHolds(ctx, a, ha, b, false, 0, ctx.ttl(), ctx.ttl());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the replication proxy", e);
        } finally {
            if (link != null) {
                try {
                    link.delete();
                } catch (IOException e) {
                    ctx.history().note("could not delete the replication proxy: " + e);
                }
            }
            replica.close();
        }
    }

    // ---- d4a, d4b ----

    private static RedlockConfig clientConfig(ScenarioContext ctx, ProxySet set, Preflight preflight) {
        return ScenarioRunner.config(ctx.settings(), ctx.cluster().uris(set)).toBuilder().preflight(preflight).build();
    }

    /**
     * With Preflight.OFF clients: A holds on a majority M; node v of M is filled with keys without a TTL until
     * volatile-lru evicts A's key (every key with a TTL is a candidate, and lock keys all have one); the filler is
     * deleted again. B wins on v + the other two while A holds. v's high-water mark survived (the marker has no
     * TTL), so B's token is higher: B writes first, A's later write is the stale one.
     */
    static void eviction(ScenarioContext ctx) {
        Random rnd = ctx.random();
        int n = ctx.settings().nodes();
        Eviction.evictingNodes(ctx);
        WorkloadClient a = client(ctx, 0, clientConfig(ctx, ProxySet.ofClient(0), Preflight.OFF));
        WorkloadClient b = client(ctx, 1, clientConfig(ctx, ProxySet.MAIN, Preflight.OFF));
        try {
            a.warmUp(ctx.ttl());
            b.warmUp(ctx.ttl());
            for (int r = 0; r < ctx.settings().rounds(); r++) {
                int round = r;
                ScriptSteps.round(ctx, round, () -> {
                    int v = rnd.nextInt(n);
                    int[] others = ScriptSteps.pickOthers(rnd, n, v, n - ctx.settings().quorum());
                    Held ha = ScriptSteps.acquireOnMajority(ctx, a, others);
                    boolean evicted = Eviction.fillUntilEvicted(ctx.cluster().node(v), ctx.lockKey());
                    ctx.check("round " + round + ": memory pressure evicted A's key on node " + v, evicted, "");
                    ctx.history().note("round " + round + ": node " + v + " evicted A's key under memory pressure");
                    secondHolderWhileAHolds(ctx, a, ha, b, true, round, ctx.ttl(), ctx.ttl());
                });
            }
        } finally {
            a.close();
            b.close();
        }
    }

    /** The same nodes; a client with the default Preflight.STRICT must be refused at creation. */
    static void evictionRefused(ScenarioContext ctx) {
        Eviction.evictingNodes(ctx);
        RedlockConfig strict = clientConfig(ctx, ProxySet.MAIN, Preflight.STRICT);
        try {
            new WorkloadClient(0, strict, ctx.history(), ctx.resource(), ScenarioRunner.LOCK_NAME).close();
            ctx.check("Redlock.create refuses the evicting nodes (Preflight.STRICT)", false, "created anyway");
        } catch (RedlockException e) {
            ctx.history().note("refused at start: " + e.getMessage());
            ctx.check("Redlock.create refuses the evicting nodes (Preflight.STRICT)",
                    e.getMessage().contains("maxmemory-policy=volatile-lru") && e.getMessage().contains("can evict lock keys"),
                    e.getMessage().length() > 300 ? e.getMessage().substring(0, 300) + "..." : e.getMessage());
        }
    }

    // ---- d5 ----

    /**
     * Tokens are issued with every clock in sync; node v is killed, its clock set 5 s back (far beyond the
     * tolerance of (restartQuarantine - margin) / 2), and restarted; a workload runs. Expected, and checked: SAFE,
     * tokens keep increasing, and (libfaketime) the node is refused by the preflight check of a STRICT client: its
     * clock offset is named. Without libfaketime the clock cannot be moved: the node restarts with a correct clock
     * (quarantined as a new identity), which the report says.
     */
    static void clockBehind(ScenarioContext ctx) {
        int v = ctx.settings().clockNode();
        boolean real = ctx.nemesis().clockMode() == ClockMode.FAKETIME;
        WorkloadClient a = ctx.client(0);
        for (int i = 0; i < 3; i++) {
            Held h = ScriptSteps.must(ctx.acquireWithin(a, SETUP), "A could not acquire");
            a.write(h, a.read());
            a.release(h);
        }
        try (FaultHandle down = ctx.nemesis().kill(v)) {
            if (real) {
                ((FaketimeServer) ctx.cluster().node(v)).jump(Duration.ofSeconds(-5));
                ctx.history().note("node " + v + "'s clock set 5 s back (libfaketime) before its restart");
            } else {
                ctx.history().note("simulated mode: libfaketime is not available, node " + v + " restarts with a "
                        + "correct clock; the clock-offset refusal cannot be shown in this mode");
            }
        }
        ctx.cluster().awaitReachable(ProxySet.MAIN, v, SETUP);
        if (real) {
            String seen;
            try {
                seen = "TIME reads " + ((FaketimeServer) ctx.cluster().node(v)).verifyOffset().toMillis() + " ms";
            } catch (IllegalStateException e) {
                seen = e.getMessage();
            }
            ctx.check("node " + v + "'s clock is 5 s behind this host's after its restart", seen.startsWith("TIME"), seen);
        }
        ctx.runWorkload(ctx.settings().duration());
        List<Long> tokens = ctx.history().events(e -> e.op() == Event.Op.ACQUIRE && e.type() == Event.Type.OK)
                .stream().map(Event::token).toList();
        boolean increasing = true;
        for (int i = 1; i < tokens.size(); i++) increasing &= tokens.get(i) > tokens.get(i - 1);
        ctx.check("tokens strictly increase across the restart", increasing && tokens.size() > 3, tokens.size()
                + " leases");
        if (real) {
            try {
                new WorkloadClient(9, clientConfig(ctx, ProxySet.MAIN, Preflight.STRICT), ctx.history(),
                        ctx.resource(), ScenarioRunner.LOCK_NAME).close();
                ctx.check("a STRICT client refuses the node whose clock is behind", false, "created anyway");
            } catch (RedlockException e) {
                int seenAs = ChaosCluster.listenPort(ctx.cluster().proxy(ProxySet.MAIN, v).getListen());
                ctx.check("a STRICT client refuses the node whose clock is behind, naming its offset",
                        e.getMessage().contains(":" + seenAs + " clock offset -5"), e.getMessage());
            }
        }
    }

    // ---- d7 ----

    /**
     * A's token T is written to a majority M = {v, x, y} (the others O cut for A). v then loses what M's other nodes
     * keep: round 0 its fence entry for the resource (deleted, as its retention or an eviction would; the marker and
     * its high-water mark stay), round 1 its whole memory (killed -9, restarted without persistence; the quarantine
     * is waited out). A new client C, with no token hint for the resource, reaches only v and O (x and y cut on its
     * own proxies): its token is max(fences of v and O) + 1, so v's fence must read at least T: the high-water mark
     * in round 0, the node's clock in round 1 (on nodes marked fresh, the only fences of a lost node above T). Checked
     * by the token order of the history, and here. In round 1, C's first round reaches v alone, which starts v's
     * quarantine without any grant elsewhere: retried rounds would each raise O's fences with their token guess.
     */
    static void fencesAfterALoss(ScenarioContext ctx) {
        Random rnd = ctx.random();
        WorkloadClient a = ctx.client(0);
        int n = ctx.settings().nodes();
        String fenceKey = ScenarioRunner.KEY_PREFIX + "__fence:" + ScenarioRunner.LOCK_NAME;
        for (int round = 0; round < ctx.settings().rounds(); round++) {
            int v = rnd.nextInt(n);
            int[] others = ScriptSteps.pickOthers(rnd, n, v, n - ctx.settings().quorum());
            int[] majorityButV = IntStream.range(0, n)
                    .filter(i -> i != v && Arrays.stream(others).noneMatch(o -> o == i)).toArray();
            for (int i = 0; i < 2; i++) {   // every node has a fence for the resource
                Held h = ScriptSteps.must(ctx.acquireWithin(a, SETUP), "A could not acquire");
                a.write(h, a.read());
                a.release(h);
            }
            Held ha = ScriptSteps.acquireOnMajority(ctx, a, others);
            a.write(ha, a.read());
            a.release(ha);
            if (round % 2 == 0) {
                ctx.cluster().node(v).command("DEL", fenceKey);
                ctx.history().note("round " + round + ": node " + v + " lost its fence entry for the resource (marker "
                        + "kept); A's token " + ha.token() + " is on nodes " + Arrays.toString(majorityButV) + " and " + v);
            } else {
                ctx.nemesis().killAndRestart(v);
                ctx.cluster().awaitReachable(ProxySet.MAIN, v, SETUP);
                ctx.history().note("round " + round + ": node " + v + " restarted without persistence; A's token "
                        + ha.token() + " is on nodes " + Arrays.toString(majorityButV));
            }
            ProxySet set = ProxySet.ofClient(2 + round);
            WorkloadClient c = new WorkloadClient(2 + round, ScenarioRunner.config(ctx.settings(),
                    ctx.cluster().uris(set)), ctx.history(), ctx.resource(), ScenarioRunner.LOCK_NAME);
            if (round % 2 == 1) {
                // v's memory (and its quarantine) begins with the first ACQUIRE it runs: C's, reaching v alone, so
                // that no round writes a token guess to the other nodes while C waits for the quarantine to pass
                try (FaultHandle onlyV = ctx.nemesis().cut(set, IntStream.range(0, n)
                        .filter(i -> i != v).toArray())) {
                    ctx.check("round " + round + ": the restarted node refuses C at first (quarantine)",
                            c.tryAcquire(ctx.ttl()).isEmpty(), "");
                }
                Sleep.of(ctx.settings().restartQuarantine().plusMillis(100));
            }
            try (FaultHandle onlyVAndO = ctx.nemesis().cut(set, majorityButV)) {
                Held hc = ScriptSteps.must(c.acquire(ctx.ttl(), History.now() + SETUP.toNanos(), new Random(rnd.nextLong()),
                        Duration.ofMillis(20), Duration.ofMillis(10)), "C could not acquire on v and the others");
                ctx.check("round " + round + ": C's token is above A's", hc.token() > ha.token(),
                        "C got " + hc.token() + ", A had " + ha.token());
                c.write(hc, c.read());
                c.release(hc);
            } finally {
                c.close();
            }
            Sleep.of(Duration.ofMillis(50));
        }
    }

    // ---- d6 ----

    /**
     * A (restartQuarantine 2 s, TTL 1 s) holds on a majority M; node v of M restarts without persistence, losing
     * A's key and the quarantine A stored there. E, a client of the lax group (restartQuarantine 300 ms), asks right
     * away: v's memory begins with E's contact and its quarantine is E's 300 ms. B, of the same group, asks once
     * those 300 ms have passed: v must not count, because the strictest quarantine (stored on the other nodes) has
     * not passed. Each round has its own E and B, which have never asked anything before: B learns the 2 s only
     * from the replies of the very round in which v grants it, so the client-side check (a grant from a node younger
     * than the strictest quarantine seen does not count) is what refuses its first round; its next rounds send the
     * 2 s, and v refuses by itself. Each attempt's B and E are created before A acquires (creation runs the preflight
     * checks, which take time on a loaded machine, and must not eat A's lease).
     */
    static void mixedQuarantines(ScenarioContext ctx) {
        Random rnd = ctx.random();
        WorkloadClient a = ctx.client(0);
        Duration laxTtl = ms(300);
        RedlockConfig lax = ScenarioRunner.config(ctx.settings(), ctx.cluster().uris()).toBuilder()
                .restartQuarantine(laxTtl).build();
        int n = ctx.settings().nodes();
        int[] nextId = {2};
        for (int r = 0; r < ctx.settings().rounds(); r++) {
            int round = r;
            ScriptSteps.round(ctx, round, () -> {
                // a new B and E per attempt, created before A acquires: neither has asked anything before
                try (WorkloadClient b = client(ctx, nextId[0]++, lax);
                     WorkloadClient e = client(ctx, nextId[0]++, lax)) {
                    int v = rnd.nextInt(n);
                    int[] others = ScriptSteps.pickOthers(rnd, n, v, n - ctx.settings().quorum());
                    Held ha = ScriptSteps.acquireOnMajority(ctx, a, others);
                    ctx.nemesis().killAndRestart(v);
                    ctx.cluster().awaitReachable(ProxySet.MAIN, v, SETUP);
                    e.tryAcquire(laxTtl).ifPresent(e::release);   // no quorum: v is new, A holds two nodes
                    long asked = History.now();
                    b.redlock().checkHealth(laxTtl);   // B's link to v reconnects meanwhile (read-only)
                    // the lax group's quarantine on v has passed
                    Sleep.of(Duration.ofNanos(Math.max(0, asked + laxTtl.plusMillis(50).toNanos() - History.now())));
                    ctx.history().note("round " + round + ": node " + v + " restarted, first asked by E "
                            + (laxTtl.toMillis() + 50) + " ms ago; A (2 s quarantine) holds on "
                            + Arrays.toString(ctx.lockValues().toArray()));
                    secondHolderWhileAHolds(ctx, a, ha, b, false, round, laxTtl, ctx.ttl());
                }
            });
        }
    }

    /** A client of its own (not one of the run's), recorded in the run's history. */
    private static WorkloadClient client(ScenarioContext ctx, int id, RedlockConfig config) {
        return new WorkloadClient(id, config, ctx.history(), ctx.resource(), ScenarioRunner.LOCK_NAME);
    }
}
