package dev.redlock.sim.simulator;

import dev.redlock.Preflight;
import dev.redlock.Redlock;
import dev.redlock.RedlockConfig;
import dev.redlock.internal.RedlockInternals;
import dev.redlock.internal.Seams;
import dev.redlock.sim.LinkDelay;
import dev.redlock.sim.SimClient;
import dev.redlock.sim.SimNetwork;
import dev.redlock.sim.SimNode;
import dev.redlock.sim.SimScheduler;
import dev.redlock.sim.SimTrace;
import dev.redlock.sim.SimTransport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;

/**
 * One seed's world as its {@link Plan} draws it: the simulated nodes (with their versions, persistence and clocks),
 * the fenced register's own node (never faulted), and one real {@link Redlock} per client, created on the seams of
 * the simulation (its timers on the client's {@link ClientExecutor}, its monotonic clock the virtual time at the
 * client's rate, its wall clock virtual time plus the client's offset, its randomness seeded). Applies the faults
 * of a {@link Fault} schedule and heals them. Not thread-safe: the loop only.
 */
final class World {
    final Plan plan;
    final SimScheduler time;
    final SimTrace trace;
    final SimNetwork net;
    final List<SimNode> nodes = new ArrayList<>();
    final SimNode store;
    final Client[] clients;
    private final long[] nodeOffsetUs;
    private final LinkDelay defaultDelay;

    /** One client process: its network identity, its timers, its Redlock and its link to the register. */
    static final class Client {
        final int index;
        final Plan.ClientPlan plan;
        final SimClient sim;
        final ClientExecutor exec;
        final SimTransport store;
        Redlock redlock;
        long wallOffsetUs;
        /** The in-flight pause holding this client now, if any. */
        Fault pausedBy;

        Client(int index, Plan.ClientPlan plan, SimClient sim, ClientExecutor exec, SimTransport store) {
            this.index = index;
            this.plan = plan;
            this.sim = sim;
            this.exec = exec;
            this.store = store;
            this.wallOffsetUs = plan.wallOffsetUs;
        }

        /** A stop-the-world pause: the process sends and reads nothing, its timers and callbacks wait. */
        void pause() {
            sim.pause();
            exec.pause();
        }

        /** The end of a pause: what arrived meanwhile is read first, then what fell due runs (both idempotent). */
        void resume() {
            sim.resume();
            exec.resume();
        }
    }

    World(Plan plan, SimScheduler time, SimTrace trace, boolean uncappedGuesses) {
        this.plan = plan;
        this.time = time;
        this.trace = trace;
        this.net = new SimNetwork(time, trace);
        this.defaultDelay = LinkDelay.uniform(Duration.ofNanos(plan.minDelayNs), Duration.ofNanos(plan.maxDelayNs));
        net.defaultDelay(defaultDelay);
        nodeOffsetUs = plan.nodeClockOffsetUs.clone();
        List<String> uris = new ArrayList<>();
        for (int i = 0; i < plan.nodes; i++) {
            SimNode.Builder b = SimNode.builder(time, "n" + i).epochMicros(Plan.EPOCH_US).persistence(plan.persistence[i]);
            String v = plan.versions[i];
            if (v.startsWith("valkey ")) b.valkey(v.substring("valkey ".length()));
            else b.version(v);
            SimNode n = net.attach(b.build());
            n.clockOffset(Duration.ofNanos(nodeOffsetUs[i] * 1000));
            nodes.add(n);
            uris.add("redis://n" + i + ":6379");
        }
        store = net.attach(SimNode.builder(time, "store").epochMicros(Plan.EPOCH_US).build());
        clients = new Client[plan.clients];
        for (int c = 0; c < plan.clients; c++) {
            Plan.ClientPlan cp = plan.client[c];
            SimClient sim = net.client("c" + c);
            Client client = new Client(c, cp, sim, new ClientExecutor(time), sim.transport(store));
            clients[c] = client;
            List<SimTransport> transports = new ArrayList<>();
            for (SimNode n : nodes) transports.add(sim.transport(n));
            double rate = cp.tickerRate;
            Seams.Builder seams = Seams.builder()
                    .ticker(() -> (long) (time.nanoTime() * rate))
                    .wallMicros(() -> Plan.EPOCH_US + time.nanoTime() / 1000 + client.wallOffsetUs)
                    .scheduler(client.exec)
                    .events(client.exec)
                    .random(new Random(cp.randomSeed));
            if (uncappedGuesses) seams.uncappedGuesses();
            RedlockConfig.Builder config = RedlockConfig.builder().nodes(uris)
                    .nodeTimeout(Duration.ofMillis(cp.nodeTimeoutMs))
                    .retryCount(cp.retryCount)
                    .retryDelay(Duration.ofMillis(cp.retryDelayMs))
                    .retryJitter(Duration.ofMillis(cp.retryJitterMs))
                    .restartQuarantine(Duration.ofMillis(cp.quarantineMs))
                    .driftFactor(Plan.DRIFT_FACTOR)
                    .fencing(true)
                    // the checks at create block for the nodes' answers; the loop is single-threaded (see README)
                    .preflight(Preflight.OFF);
            if (cp.maxHoldMs > 0) config.maxHold(Duration.ofMillis(cp.maxHoldMs));
            client.redlock = RedlockInternals.create(config.build(), transports, seams.build());
        }
    }

    /**
     * Marks every node fresh through client 0's {@code Redlock} (the library's own marking, as an operator runs it at a
     * first deployment), before any fault or lock: the loop runs until every node answered.
     */
    void markFresh() {
        CompletableFuture<Integer> marked = RedlockInternals.markNodesFreshAsync(clients[0].redlock);
        while (!marked.isDone()) time.runUntil(time.nanoTime() + 1_000_000);
        int n = marked.join();
        if (n != nodes.size()) throw new IllegalStateException("marked " + n + " of " + nodes.size() + " nodes fresh");
        if (trace.enabled()) trace.record("marked " + n + " nodes fresh");
    }

    /** Schedules every fault of {@code faults} (and its heal) on the loop, {@code offsetNs} later than planned. */
    void schedule(List<Fault> faults, long offsetNs) {
        for (Fault f : faults) {
            time.at(offsetNs + f.at(), () -> start(f));
            if (f.durationNs() > 0) time.at(offsetNs + f.end(), () -> end(f));
        }
    }

    private void start(Fault f) {
        if (trace.enabled()) trace.record("fault " + f);
        SimNode n = nodes.get(f.node());
        Client c = clients[f.client()];
        switch (f.kind()) {
            case PARTITION -> net.partition(c.sim, n);
            case CUT_TO_NODE -> net.cut(c.sim, n, true, false);
            case CUT_TO_CLIENT -> net.cut(c.sim, n, false, true);
            case RESET -> net.reset(c.sim, n);
            case KILL -> down(n, false);
            case POWER_LOSS -> down(n, true);
            case NODE_PAUSE -> n.pause();
            case CLIENT_PAUSE -> c.pause();
            case NODE_CLOCK_RATE -> n.clockRate(1 + f.param() * 1e-6);
            case NODE_CLOCK_BACK -> {
                nodeOffsetUs[f.node()] -= f.param();
                n.clockOffset(Duration.ofNanos(nodeOffsetUs[f.node()] * 1000));
            }
            // once the task that sent has finished (every request of the call is on the wire), before any reply
            case CLIENT_PAUSE_IN_FLIGHT -> c.sim.onNextSend(() -> time.execute(() -> {
                if (trace.enabled()) trace.record("c" + c.index + " paused with a call in flight (#" + f.index() + ")");
                c.pausedBy = f;
                c.pause();
                time.at(time.nanoTime() + f.param(), () -> endInFlightPause(c, f));
            }));
            case CLIENT_CLOCK_STEP -> c.wallOffsetUs = f.param();
            case SNAPSHOT -> {
                if (n.isRunning()) n.snapshot();
            }
            case DELAY_SPIKE -> net.delay(c.sim, n, LinkDelay.exponential(Duration.ofNanos(plan.minDelayNs),
                    Duration.ofNanos(f.param())));
            case FENCE_LOSS -> {
                String key = "redlock:__fence:" + plan.resources[(int) (f.param() & 0xff)];
                for (int i = 0; i < nodes.size(); i++) {
                    if ((f.param() >> 8 & 1L << i) != 0 && nodes.get(i).isRunning()) nodes.get(i).evict(key);
                }
            }
            case RESTART_STORM -> {
                for (int i = 0; i < nodes.size(); i++) if ((f.param() & (1L << i)) != 0) down(nodes.get(i), i % 2 == 1);
            }
        }
    }

    private void end(Fault f) {
        if (trace.enabled()) trace.record("heal " + f);
        SimNode n = nodes.get(f.node());
        Client c = clients[f.client()];
        switch (f.kind()) {
            case PARTITION, CUT_TO_NODE, CUT_TO_CLIENT -> net.heal(c.sim, n);
            case KILL, POWER_LOSS -> up(n);
            case NODE_PAUSE -> n.resume();
            case CLIENT_PAUSE -> c.resume();
            case NODE_CLOCK_RATE -> n.clockRate(1.0);
            case DELAY_SPIKE -> net.delay(c.sim, n, defaultDelay);
            case CLIENT_PAUSE_IN_FLIGHT -> {
                c.sim.onNextSend(null);   // it lapses if the client sent nothing in its window
                endInFlightPause(c, f);
            }
            case RESTART_STORM -> {
                for (int i = 0; i < nodes.size(); i++) if ((f.param() & (1L << i)) != 0) up(nodes.get(i));
            }
            default -> { }
        }
    }

    /** Ends the pause that fault {@code f} started on {@code c}, once (its own timer or the fault's end). */
    private void endInFlightPause(Client c, Fault f) {
        if (c.pausedBy != f) return;
        c.pausedBy = null;
        if (trace.enabled()) trace.record("c" + c.index + " resumed (#" + f.index() + ")");
        c.resume();
    }

    private static void down(SimNode n, boolean powerLoss) {
        if (!n.isRunning()) return;
        if (powerLoss) n.powerLoss();
        else n.kill();
    }

    private static void up(SimNode n) {
        if (!n.isRunning()) n.restart();
    }

    /** Ends every fault still in force (the liveness phase starts from a healed world). */
    void healAll() {
        net.healAll();
        for (int i = 0; i < nodes.size(); i++) {
            SimNode n = nodes.get(i);
            up(n);
            if (n.isPaused()) n.resume();
            n.clockRate(1.0);
        }
        for (Client c : clients) {
            for (SimNode n : nodes) net.delay(c.sim, n, defaultDelay);
            c.sim.onNextSend(null);
            c.pausedBy = null;
            c.resume();
        }
    }
}
