package dev.redlock.chaos.scenario;

import static dev.redlock.chaos.scenario.ScriptSteps.SETUP;
import static dev.redlock.chaos.scenario.ScriptSteps.ms;

import dev.redlock.RedlockConfig;
import dev.redlock.chaos.cluster.ProxySet;
import dev.redlock.chaos.history.Event;
import dev.redlock.chaos.history.History;
import dev.redlock.chaos.nemesis.FaultHandle;
import dev.redlock.chaos.workload.Held;
import dev.redlock.chaos.workload.WorkloadClient;
import dev.redlock.internal.RedlockInternals;
import dev.redlock.internal.Seams;
import dev.redlock.testkit.RedisProcess;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;

/**
 * Scenarios of topology changes a lock must survive without anyone restarting a process in the usual way: a
 * failover behind a proxy that keeps its client connections, a failback (a master demoted, resynced and promoted
 * again), a rolling change of the node list (5 to 7 nodes) with old and new clients contending, and a client whose
 * wall clock steps after it was created. Each SAFE scenario has a twin that switches its guard off through the
 * harness (the marker rewritten to the node's new identity, the membership records deleted, the nodes' cap on guessed
 * tokens lifted) and must show the violation the guard prevents. Definitions next to their bodies, like
 * {@link DeploymentScripts}.
 */
@SuppressWarnings("try") // fault handles are opened for their heal-in-finally, not referenced
final class TopologyScripts {
    /** Starts replicas, kills a master, partitions client 0 alone (its own proxies). */
    private static final Needs REPLICAS = Needs.NOTHING.withProcessControl().withOwnProxies()
            .withFixed("a node's quarantine must outlast the second client's asking while the first holds",
                    Knob.TTL, Knob.RESTART_QUARANTINE);
    private static final String MARKER = ScenarioRunner.KEY_PREFIX + "__node";
    /** The rolling change: old clients run with the first {@value} nodes. */
    private static final int OLD_NODES = 5;
    private static final int OLD_QUORUM = 3;

    private TopologyScripts() {}

    /** The scenarios of this family, in order. */
    static List<Scenario> all() {
        Settings guarded = Settings.builder().ttl(ms(600)).ownProxies(Set.of(0)).rounds(1).build();
        Settings seven = Settings.builder().nodes(7).ttl(ms(600)).rounds(1).build();
        Needs kept = REPLICAS.withKeptConnections();
        Needs rolling = Needs.NOTHING.withOwnProxies().withFixed("old clients run with 5 of the 7 nodes (quorum 3), "
                + "new ones with all 7 (quorum 4)", Knob.QUORUM, Knob.TTL, Knob.RESTART_QUARANTINE);
        Needs stepped = Needs.NOTHING.withProcessControl().withOwnProxies().withFixed("the clock step (+60 s) must "
                + "exceed the nodes' cap on guessed tokens (a quarter of the quarantine)", Knob.TTL,
                Knob.RESTART_QUARANTINE);
        return List.of(
                new Scenario("d8a", "failover, connections kept", "a replica of a node of the holder's majority "
                        + "copies the marker and is promoted; the master is killed and the node's proxies move their "
                        + "open client connections to the replica (the connections live on); guard on",
                        Expectation.SAFE, guarded, ctx -> failoverKeepingConnections(ctx, false), kept),
                new Scenario("d8b", "failover, connections kept, identity check off", "as d8a, and the harness "
                        + "rewrites the promoted replica's marker to its own run_id and replication id",
                        Expectation.VIOLATION, guarded, ctx -> failoverKeepingConnections(ctx, true), kept),
                new Scenario("d9a", "failback", "node X has a replica Y; Y is promoted while X is cut off from it; "
                        + "the holder locks on X and two others; X is demoted (REPLICAOF Y: its full resync drops the "
                        + "holder's key) and failed back (REPLICAOF NO ONE); guard on", Expectation.SAFE, guarded,
                        ctx -> failback(ctx, false), REPLICAS),
                new Scenario("d9b", "failback, identity check off", "as d9a, and the harness rewrites X's marker "
                        + "to X's new replication id (its run_id never changed)", Expectation.VIOLATION, guarded,
                        ctx -> failback(ctx, true), REPLICAS),
                new Scenario("d10a", "node list 5 -> 7, transition configuration", "7 nodes; an old client (nodes "
                        + "1-5, quorum 3) holds on 3 of its nodes; a transition client (nodes 1-7, quorum 4, "
                        + "previousNodes 1-5) asks; they swap", Expectation.SAFE, seven,
                        ctx -> rollingChange(ctx, Rollout.TRANSITION), rolling),
                new Scenario("d10b", "node list 5 -> 7, no transition", "as d10a, the new client without "
                        + "previousNodes: the nodes refuse it (MembershipConflictException) while the old client works",
                        Expectation.SAFE, seven, ctx -> rollingChange(ctx, Rollout.NEW_LIST), rolling),
                new Scenario("d10c", "node list 5 -> 7, membership check off", "as d10b, and the harness deletes "
                        + "the nodes' membership records before the new client asks", Expectation.VIOLATION, seven,
                        ctx -> rollingChange(ctx, Rollout.RECORDS_DELETED), rolling),
                new Scenario("d11a", "client clock step, then a node's memory lost", "nodes not marked fresh "
                        + "(tokens are times); a client's wall clock steps +60 s after create; it locks on a majority; "
                        + "a node of that majority restarts without persistence; a new client reaches it and the "
                        + "other two; guard on", Expectation.SAFE, guarded.toBuilder().ownProxies(Set.of()).build(),
                        ctx -> clockStep(ctx, false), stepped),
                new Scenario("d11b", "client clock step, guess cap off", "as d11a, the nodes writing the stepped "
                        + "client's token guess uncapped (Seams.uncappedGuesses)", Expectation.VIOLATION,
                        guarded.toBuilder().ownProxies(Set.of()).build(), ctx -> clockStep(ctx, true), stepped));
    }

    // ---- d8a, d8b ----

    /**
     * Node v is served by master M with a replica R (replicating directly, marker and fences copied: waited on). R is
     * promoted before A acquires, so it lacks A's key as a lagging replica would. A acquires on a majority containing
     * v; v's proxies (every set) move their open connections to R, keeping the client sockets, and M is killed. B is
     * a long-lived client whose connection to v was opened with M: R's marker names M's process and replication id,
     * and the ACQUIRE script compares them with what R reads from its own {@code INFO} on every call, so R is a new
     * identity, quarantined: B is refused while A holds. The twin rewrites R's marker to R's own identity. A repeated
     * attempt ({@link ScriptSteps#round}) takes the process now serving v as the master.
     */
    static void failoverKeepingConnections(ScenarioContext ctx, boolean identityCheckOff) {
        WorkloadClient a = ctx.client(0), b = ctx.client(1);
        withReplica(ctx, (v, others, replica) -> {
            RedisProcess master = ctx.servedBy(v);
            replicate(replica, master);
            issueTokens(ctx, a);
            Replication.awaitSync(master, replica, MARKER, "node " + v);
            replica.command("REPLICAOF", "NO", "ONE");
            ctx.history().note("replica on port " + replica.port() + " of node " + v + " in sync, then promoted");
            Held ha = ScriptSteps.acquireOnMajority(ctx, a, others);
            int moved = 0;
            for (ProxySet set : ctx.cluster().proxySets()) {
                moved += ctx.cluster().toxiproxy().switchUpstreamKeepingConnections(
                        ctx.cluster().proxy(set, v).getName(), ctx.cluster().toxiproxy().upstreamHost() + ":"
                                + replica.port());
            }
            ctx.failedOver(v, replica);   // the ground truth follows the clients to the promoted replica
            if (master == ctx.cluster().node(v)) ctx.nemesis().kill(v);   // healed (restarted) at the end
            else master.kill();
            ctx.history().note("node " + v + ": " + moved + " open client connection(s) moved to the promoted "
                    + "replica, the master killed");
            ctx.check("node " + v + "'s proxies kept their client connections", moved >= 2, moved + " moved");
            if (identityCheckOff) rewriteIdentity(ctx, replica, true, "node " + v + "'s promoted replica");
            DeploymentScripts.secondHolderWhileAHolds(ctx, a, ha, b, identityCheckOff, 0, ctx.ttl(), ctx.ttl());
        });
    }

    /** One attempt of a replica scenario: node {@code v} of A's majority (the others cut for A), a new replica. */
    private interface ReplicaAttempt {
        void run(int v, int[] others, RedisProcess replica);
    }

    /**
     * Picks node v and the nodes A's lease leaves out, then runs {@code attempt} as round 0 ({@link ScriptSteps#round})
     * with a replica started for each try; every replica is stopped at the end.
     */
    private static void withReplica(ScenarioContext ctx, ReplicaAttempt attempt) {
        Random rnd = ctx.random();
        int n = ctx.settings().nodes();
        int v = rnd.nextInt(n);
        int[] others = ScriptSteps.pickOthers(rnd, n, v, n - ctx.settings().quorum());
        List<RedisProcess> started = new ArrayList<>();
        try {
            ScriptSteps.round(ctx, 0, () -> {
                RedisProcess replica = ctx.cluster().startNode(false);
                started.add(replica);
                attempt.run(v, others, replica);
            });
        } finally {
            for (RedisProcess r : started) r.close();
        }
    }

    // ---- d9a, d9b ----

    /**
     * Node X (node v) has a replica Y (in sync: waited on). Y is promoted while X is cut off from it; A acquires on a
     * majority containing X. X is demoted ({@code REPLICAOF Y}): its full resync replaces its memory with Y's, A's
     * key gone, the marker copied from Y naming X's process. X is failed back ({@code REPLICAOF NO ONE}). Its
     * {@code run_id} never changed, its {@code master_replid} did: a new identity, quarantined, so B is refused while
     * A holds. The twin rewrites X's marker to X's new replication id.
     */
    static void failback(ScenarioContext ctx, boolean identityCheckOff) {
        WorkloadClient a = ctx.client(0), b = ctx.client(1);
        withReplica(ctx, (v, others, y) -> {
            RedisProcess x = ctx.cluster().node(v);
            replicate(y, x);
            issueTokens(ctx, a);
            Replication.awaitSync(x, y, MARKER, "node " + v);
            y.command("REPLICAOF", "NO", "ONE");
            ctx.history().note("node " + v + "'s replica on port " + y.port() + " in sync, then promoted while "
                    + "node " + v + " is cut off from it");
            Held ha = ScriptSteps.acquireOnMajority(ctx, a, others);
            String run = x.runId();
            replicate(x, y);
            Replication.awaitSync(y, x, MARKER, "the promoted replica");
            ctx.check("node " + v + "'s resync from the promoted replica dropped A's key",
                    x.command("GET", ctx.lockKey()).isEmpty(), x.command("GET", ctx.lockKey()));
            x.command("REPLICAOF", "NO", "ONE");
            ctx.check("node " + v + " failed back in the same process", run.equals(x.runId()), x.runId());
            ctx.history().note("node " + v + " demoted (REPLICAOF " + y.port() + ", full resync), failed back "
                    + "(REPLICAOF NO ONE): run_id " + run + " unchanged, replication id "
                    + x.info("replication", "master_replid"));
            if (identityCheckOff) rewriteIdentity(ctx, x, false, "node " + v);
            DeploymentScripts.secondHolderWhileAHolds(ctx, a, ha, b, identityCheckOff, 0, ctx.ttl(), ctx.ttl());
        });
    }

    /** {@code replica} replicates {@code master} directly (no diskless-sync delay, which 7.0 has by default). */
    private static void replicate(RedisProcess replica, RedisProcess master) {
        master.command("CONFIG", "SET", "repl-diskless-sync-delay", "0");
        replica.command("REPLICAOF", "127.0.0.1", Integer.toString(master.port()));
    }

    /** A few leases on every node: fences and the marker's high-water mark to copy. */
    private static void issueTokens(ScenarioContext ctx, WorkloadClient a) {
        for (int i = 0; i < 2; i++) {
            Held h = ScriptSteps.must(ctx.acquireWithin(a, SETUP), "A could not acquire");
            a.write(h, a.read());
            a.release(h);
        }
    }

    /**
     * Identity check off: the node's marker is rewritten to the process now serving it (its replication id, and with
     * {@code run} its run_id too), what a library that compared neither would see.
     */
    private static void rewriteIdentity(ScenarioContext ctx, RedisProcess node, boolean run, String what) {
        String rid = node.info("replication", "master_replid");
        if (run) node.command("HSET", MARKER, "run", node.runId(), "rid", rid);
        else node.command("HSET", MARKER, "rid", rid);
        ctx.history().note("identity check off: " + what + "'s marker rewritten to " + (run ? "run_id " + node.runId()
                + " and " : "") + "replication id " + rid);
    }

    // ---- d10a, d10b, d10c ----

    /** How the new clients of a rolling change are configured, and whether the guard is on. */
    enum Rollout { TRANSITION, NEW_LIST, RECORDS_DELETED }

    /**
     * Seven nodes. The old deployment: client A with the first five nodes (quorum 3); the runner's warm-up records
     * (all seven nodes) are deleted first, as if the new clients had not arrived yet. A holds on nodes {2, 3, 4} of
     * its list (nodes 0 and 1 cut for it); C, a new client, asks while A holds. TRANSITION: C has nodes 0-6 (quorum 4)
     * and previousNodes 0-4: it can get 0, 1, 5, 6 (a quorum of its new list) but not 3 of the previous five, so it is
     * refused, and acquires once A released. NEW_LIST: C has nodes 0-6 alone; the nodes that served A refuse it
     * (MembershipConflictException) while A keeps working. RECORDS_DELETED (twin): as NEW_LIST with the membership
     * records deleted before C asks: C wins on 0, 1, 5, 6 while A holds 2, 3, 4.
     */
    static void rollingChange(ScenarioContext ctx, Rollout rollout) {
        int n = ctx.settings().nodes();
        deleteRecords(ctx, "the runner's warm-up clients (all " + n + " nodes)");
        List<String> oldUris = ctx.cluster().uris(ProxySet.ofClient(2)).subList(0, OLD_NODES);
        RedlockConfig old = ScenarioRunner.config(ctx.settings(), oldUris).toBuilder().quorum(OLD_QUORUM).build();
        List<String> newUris = ctx.cluster().uris(ProxySet.ofClient(3));
        RedlockConfig.Builder fresh = ScenarioRunner.config(ctx.settings(), newUris).toBuilder();
        if (rollout == Rollout.TRANSITION) {
            fresh.previousNodes(ctx.cluster().uris(ProxySet.ofClient(3)).subList(0, OLD_NODES));
        }
        ctx.history().clientList(2, OLD_NODES, OLD_QUORUM);
        try (WorkloadClient a = client(ctx, 2, old)) {
            a.warmUp(ctx.ttl());
            issueTokens(ctx, a);
            try (WorkloadClient c = client(ctx, 3, fresh.build())) {
                c.warmUp(ctx.ttl());   // refused by the nodes that served A unless it is a transition client
                ctx.history().note("old client 2: nodes 0-" + (OLD_NODES - 1) + ", quorum " + OLD_QUORUM
                        + "; new client 3: nodes 0-" + (n - 1) + ", quorum " + ctx.settings().quorum()
                        + (rollout == Rollout.TRANSITION ? ", previousNodes 0-" + (OLD_NODES - 1) : ""));
                ScriptSteps.round(ctx, 0, () -> {
                    Held ha = ScriptSteps.acquireOnMajority(ctx, a, new int[] {0, 1, 5, 6});   // 5, 6: not A's
                    switch (rollout) {
                        case TRANSITION -> {
                            DeploymentScripts.secondHolderWhileAHolds(ctx, a, ha, c, false, 0, ctx.ttl(), ctx.ttl());
                            String why = lastFailure(ctx, c.id());
                            ctx.check("the transition client was refused by the quorum rule, not as another list",
                                    !why.isEmpty() && !why.contains("another node list"), why);
                        }
                        case RECORDS_DELETED -> {
                            deleteRecords(ctx, "every client (membership check off)");
                            DeploymentScripts.secondHolderWhileAHolds(ctx, a, ha, c, true, 0, ctx.ttl(), ctx.ttl());
                        }
                        case NEW_LIST -> {
                            long until = ScriptSteps.whileAHolds(a, ha, c);
                            ctx.check("the new client is refused while A holds", c.tryAcquire(ctx.ttl()).isEmpty(), "");
                            String why = lastFailure(ctx, c.id());
                            ctx.check("the refusal names the other node list (MembershipConflictException)",
                                    why.contains("another node list"), why);
                            if (History.now() < until && ha.lease().isValid()) a.write(ha, a.read());
                            else a.noteLost(ha, "validity ran out before the write");
                            a.release(ha);
                            Held again = ScriptSteps.must(ctx.acquireWithin(a, SETUP), "the old client could not "
                                    + "acquire again");
                            a.write(again, a.read());
                            a.release(again);
                        }
                    }
                });
            }
        }
    }

    /** Deletes every membership record ({@code m:...} fields of the marker) on every node. */
    private static void deleteRecords(ScenarioContext ctx, String whose) {
        int deleted = 0;
        for (RedisProcess node : ctx.cluster().nodes()) {
            for (String f : node.command("HKEYS", MARKER).split("\r?\n")) {
                if (f.startsWith("m:")) deleted += Integer.parseInt(node.command("HDEL", MARKER, f).trim());
            }
        }
        ctx.history().note(deleted + " membership record(s) of " + whose + " deleted on the nodes");
    }

    /** The detail of client {@code client}'s last failed acquire, or "". */
    private static String lastFailure(ScenarioContext ctx, int client) {
        List<Event> failed = ctx.history().events(e -> e.client() == client && e.op() == Event.Op.ACQUIRE
                && e.type() == Event.Type.FAIL);
        return failed.isEmpty() ? "" : failed.get(failed.size() - 1).detail();
    }

    // ---- d11a, d11b ----

    /**
     * Nodes not marked fresh: the harness deletes every marker and the resource's fence first, so fences are the
     * nodes' clocks in microseconds (the nodes are new, and quarantined once). S, a client created through
     * {@link RedlockInternals#create} with a wall clock it can step, takes leases until it has a token hint (and its
     * clock watch has seen the nodes agree). Its clock then steps +60 s; S acquires on a majority {v, x, y}: its
     * one-round guess is 60 s ahead. The nodes cap a guess at their clock plus the margin, so the round falls back to
     * max + 1 (twin: uncapped, the guess becomes the token). v restarts without persistence. B, a client with a
     * correct clock, reaches only v and the two other nodes; once v's quarantine passed its token must be above S's.
     * In the twin it is 60 s lower: B is the only holder, yet the fenced store refuses its write and the unfenced one
     * takes a write below the highest token.
     */
    static void clockStep(ScenarioContext ctx, boolean uncapped) {
        Random rnd = ctx.random();
        int n = ctx.settings().nodes();
        for (RedisProcess node : ctx.cluster().nodes()) {
            node.command("DEL", MARKER, ScenarioRunner.KEY_PREFIX + "__fence:" + ScenarioRunner.LOCK_NAME);
        }
        ctx.history().note("every node's marker and the resource's fence deleted: fences are the nodes' clocks");
        AtomicLong stepMicros = new AtomicLong();
        Seams.Builder seams = Seams.builder().wallMicros(() -> Seams.systemMicros() + stepMicros.get());
        if (uncapped) seams.uncappedGuesses();
        RedlockConfig sConfig = ScenarioRunner.config(ctx.settings(), ctx.cluster().uris(ProxySet.ofClient(2)));
        RedlockConfig bConfig = ScenarioRunner.config(ctx.settings(), ctx.cluster().uris(ProxySet.ofClient(3)));
        try (WorkloadClient s = new WorkloadClient(2, RedlockInternals.create(sConfig, seams.build()), ctx.history(),
                ctx.resource(), ScenarioRunner.LOCK_NAME);
             WorkloadClient b = client(ctx, 3, bConfig)) {
            issueTokens(ctx, s);   // the first waits out the nodes' quarantine (they are new identities)
            int v = rnd.nextInt(n);
            int[] others = ScriptSteps.pickOthers(rnd, n, v, n - ctx.settings().quorum());
            int[] majorityButV = IntStream.range(0, n)
                    .filter(i -> i != v && Arrays.stream(others).noneMatch(o -> o == i)).toArray();
            stepMicros.set(Duration.ofSeconds(60).toNanos() / 1000);
            long stepped = Seams.systemMicros();
            Held hs = ScriptSteps.acquireOnMajority(ctx, s, others);
            long aheadMs = (hs.token() - stepped) / 1000;
            ctx.history().note("S's clock stepped +60 s; S's token " + hs.token() + " is " + aheadMs + " ms ahead of "
                    + "this host's clock, on nodes " + v + " and " + Arrays.toString(majorityButV));
            ctx.check(uncapped ? "the nodes wrote S's stepped guess (cap off)" : "the nodes did not write S's stepped "
                    + "guess (the token is max + 1)", uncapped == aheadMs > 30_000, aheadMs + " ms ahead");
            s.write(hs, s.read());
            s.release(hs);
            ctx.nemesis().killAndRestart(v);
            ctx.cluster().awaitReachable(ProxySet.MAIN, v, SETUP);
            try (FaultHandle onlyVAndOthers = ctx.nemesis().cut(ProxySet.ofClient(3), majorityButV)) {
                Held hb = ScriptSteps.must(b.acquire(ctx.ttl(), History.now() + SETUP.toNanos(),
                        new Random(rnd.nextLong()), Duration.ofMillis(20), Duration.ofMillis(10)),
                        "B could not acquire on the restarted node and the others");
                ctx.history().note("node " + v + " restarted without persistence; B's token " + hb.token()
                        + (hb.token() > hs.token() ? " above" : " below") + " S's " + hs.token());
                if (!uncapped) {
                    ctx.check("B's token is above S's", hb.token() > hs.token(), hb.token() + " after " + hs.token());
                }
                b.write(hb, b.read());
                b.release(hb);
            }
        }
    }

    /** A client of its own (not one of the run's), recorded in the run's history. */
    private static WorkloadClient client(ScenarioContext ctx, int id, RedlockConfig config) {
        return new WorkloadClient(id, config, ctx.history(), ctx.resource(), ScenarioRunner.LOCK_NAME);
    }
}
