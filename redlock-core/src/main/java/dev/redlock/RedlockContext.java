package dev.redlock;

import dev.redlock.internal.Durations;
import dev.redlock.internal.Seams;
import dev.redlock.internal.Threads;
import dev.redlock.internal.Ticker;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import java.util.stream.IntStream;
import io.netty.channel.EventLoop;

/**
 * What every part of one {@link Redlock} shares: the config, the node clients, one scheduler (retries, watchdog,
 * expiry: never a thread per lease), one thread for loss listeners, the clock, key names and the live leases; and,
 * when the library created the clients, the one Netty event loop they all run on: quorum calls send their commands
 * and arm their timeout from that loop, so a round costs one thread hop, not one per node.
 */
final class RedlockContext {
    private final RedlockConfig config;
    private final List<NodeClient> nodes;
    private final ScheduledExecutorService scheduler;
    private final ExecutorService events;
    private final Ticker ticker;
    private final EventLoop ioLoop;
    private final int[] allNodes;
    private final ResourceKeys resourceKeys;
    private volatile ScriptArgs scriptArgs = ScriptArgs.of(0, 0);
    private final String markerKey;
    private final LongSupplier wallMicros;
    private final Seams seams;
    /** The strictest restart quarantine (ms) this instance has seen a node store, or asked for itself. */
    private final AtomicLong knownQuarantineMs = new AtomicLong();
    private final LongAdder fencePhases = new LongAdder();
    private final Set<LeaseCore> live = ConcurrentHashMap.newKeySet();
    private final Map<CompletableFuture<?>, String> pending = new ConcurrentHashMap<>();
    private final Set<CompletableFuture<?>> cleanups = ConcurrentHashMap.newKeySet();
    private final Set<CompletableFuture<?>> inFlight = ConcurrentHashMap.newKeySet();
    private final ReleaseSignals releases = new ReleaseSignals(this);
    private final PreflightGate preflight;
    private final TokenHints tokenHints = new TokenHints();
    private final Listeners listeners = new Listeners();
    private final String[] nodeAddresses;
    private final QuorumRule quorum;
    private final Membership membership;
    private final ClockWatch clockWatch;
    private final String guessCapArg;

    RedlockContext(RedlockConfig config, List<NodeClient> nodes, ScheduledExecutorService scheduler,
                   ExecutorService events, Ticker ticker, EventLoop ioLoop) {
        this(config, nodes, scheduler, events, Seams.builder().ticker(ticker).build(), ioLoop);
    }

    /**
     * With the seams of a run ({@link Seams}: ticker, wall clock, randomness); {@code scheduler} and {@code events} are
     * the ones to use (the seams' own, or the Redlock's).
     */
    RedlockContext(RedlockConfig config, List<NodeClient> nodes, ScheduledExecutorService scheduler,
                   ExecutorService events, Seams seams, EventLoop ioLoop) {
        this.config = config;
        this.seams = seams;
        this.wallMicros = seams.wallClock();
        Ticker ticker = seams.ticker();
        this.knownQuarantineMs.set(config.restartQuarantine().toMillis());
        this.ioLoop = ioLoop;
        this.nodes = List.copyOf(nodes);
        this.scheduler = scheduler;
        this.events = events;
        this.ticker = ticker;
        this.allNodes = IntStream.range(0, nodes.size()).toArray();
        this.resourceKeys = new ResourceKeys(config.keyPrefix());
        this.markerKey = config.keyPrefix() + "__node";
        this.preflight = new PreflightGate(this);
        this.nodeAddresses = config.allNodeAddresses().stream()
                .map(a -> a.database() == 0 ? hostPort(a) : hostPort(a) + "/" + a.database()).toArray(String[]::new);
        this.quorum = quorumRule(config);
        this.membership = new Membership(config);
        this.clockWatch = new ClockWatch(nodes.size(), AcquireRound.guessLeadMicros(config));
        this.guessCapArg = Long.toString(seams.uncappedGuesses() ? Long.MAX_VALUE : AcquireRound.guessCapMicros(config));
    }

    /**
     * The context of a new Redlock: the seams' scheduler and executor when given (not shut down by close()), else
     * new ones named after instance {@code id}.
     */
    static RedlockContext create(RedlockConfig config, List<NodeClient> nodes, Seams seams, int id, EventLoop ioLoop) {
        ScheduledExecutorService scheduler = seams.scheduler();
        if (scheduler == null) {
            ScheduledThreadPoolExecutor own = new ScheduledThreadPoolExecutor(1, Threads.daemon("redlock-" + id + "-scheduler"));
            own.setRemoveOnCancelPolicy(true);
            scheduler = own;
        }
        ExecutorService events = seams.events() != null ? seams.events()
                : Executors.newSingleThreadExecutor(Threads.daemon("redlock-" + id + "-events"));
        return new RedlockContext(config, nodes, scheduler, events, seams, ioLoop);
    }

    /** {@link AcquireRound#guessCapMicros} as the ACQUIRE script's argument. */
    String guessCapArg() { return guessCapArg; }

    /** The plain rule, or during a change of the node list the joint one (node indexes: see {@link #nodes()}). */
    private static QuorumRule quorumRule(RedlockConfig config) {
        int all = config.allNodeAddresses().size();
        if (config.previousNodeAddresses().isEmpty()) return QuorumRule.of(all, config.quorum());
        List<NodeAddress> everyNode = config.allNodeAddresses();
        int[] previous = config.previousNodeAddresses().stream()
                .mapToInt(p -> IntStream.range(0, all).filter(i -> everyNode.get(i).sameEndpoint(p)).findFirst().orElseThrow())
                .toArray();
        return QuorumRule.joint(all, config.nodeAddresses().size(), config.quorum(), previous, config.previousQuorum());
    }

    /** Which sets of nodes make a quorum (two lists during a change of the node list). */
    QuorumRule quorum() { return quorum; }

    /** The node list(s) this client runs with, as the nodes record them. */
    Membership membership() { return membership; }

    /** This client's clock against the nodes', from ACQUIRE replies. */
    ClockWatch clockWatch() { return clockWatch; }

    /**
     * True on the library's I/O thread, where blocking calls are refused ({@link #checkMayBlock}); a hot caller whose
     * method names are built tests this first, so the names are built only when refused.
     */
    boolean onIoLoop() {
        return ioLoop != null && ioLoop.inEventLoop();
    }

    /**
     * Throws when a blocking method is called on the library's own I/O thread, where futures of the async API
     * complete: it would wait for the very thread it blocks.
     *
     * @throws IllegalStateException naming {@code method} and the non-blocking {@code alternative}
     */
    void checkMayBlock(String method, String alternative) {
        if (onIoLoop()) {
            throw new IllegalStateException(method + " blocks, and was called on the library's I/O thread ("
                    + Thread.currentThread().getName() + "), where the futures of the async API complete: it would "
                    + "wait for that very thread. Use " + alternative + " there, or move the work to another executor "
                    + "(thenApplyAsync and the like)");
        }
    }

    /** {@code host:port} of a node, never credentials. */
    static String hostPort(NodeAddress a) {
        return (a.host().contains(":") ? "[" + a.host() + "]" : a.host()) + ":" + a.port();
    }

    /** The registered {@link RedlockListener}s (see {@link Listeners#any()} before computing an event's arguments). */
    Listeners listeners() { return listeners; }

    /** {@code host:port} of node {@code i}, as listeners see it. */
    String nodeAddress(int i) { return nodeAddresses[i]; }

    RedlockConfig config() { return config; }

    NodeClient node(int i) { return nodes.get(i); }

    /** Every node: those of {@link RedlockConfig#nodes()} in order, then previous-list nodes not among them. */
    List<NodeClient> nodes() { return nodes; }

    int[] allNodes() { return allNodes; }

    ScheduledExecutorService scheduler() { return scheduler; }

    /**
     * A lease's expiry timer: on the I/O loop when armed there (a new lease is handed over on the loop) and the
     * scheduler is the library's own, else on the scheduler. On the scheduler every acquire's timer became the head
     * of its queue (the next task being hours away) and woke its thread, a system call on the I/O thread right before
     * the caller's wake-up; on the loop it is a heap insert, and a cancel from another thread wakes nothing (the loop
     * removes it on its next turn).
     */
    ScheduledFuture<?> scheduleExpiry(Runnable task, long delayNanos) {
        return seams.scheduler() == null ? scheduleOnLoop(task, delayNanos)
                : scheduler.schedule(task, delayNanos, TimeUnit.NANOSECONDS);
    }

    /**
     * {@code task} after {@code delayNanos}: on the I/O loop when called from it (no thread to wake), else, or when
     * the loop is shutting down, on the scheduler.
     */
    ScheduledFuture<?> scheduleOnLoop(Runnable task, long delayNanos) {
        if (ioLoop != null && ioLoop.inEventLoop()) {
            try {
                return ioLoop.schedule(task, delayNanos, TimeUnit.NANOSECONDS);
            } catch (RejectedExecutionException e) {
                // the loop is shutting down: the scheduler below
            }
        }
        return scheduler.schedule(task, delayNanos, TimeUnit.NANOSECONDS);
    }

    ExecutorService events() { return events; }

    Ticker ticker() { return ticker; }

    /**
     * The event loop every node client runs on, or null for clients the user manages (their loops are unknown).
     */
    EventLoop ioLoop() { return ioLoop; }

    Set<LeaseCore> live() { return live; }

    /** Acquisitions not completed yet, with what they lock: {@link Redlock#close()} completes them. */
    Map<CompletableFuture<?>, String> pending() { return pending; }

    /** Rounds whose outcome is not known yet: {@link Redlock#close()} waits for them (bounded) before shutting down. */
    Set<CompletableFuture<?>> inFlight() { return inFlight; }

    /**
     * Work {@code Redlock.close()} waits for beside the rounds: a node's answer to an acquire still to come (a late
     * grant is released when it arrives) and every release in flight. Without it, close could shut a node's
     * connection between a late grant and its release, and leave the key until its TTL. Whatever completes
     * {@code work} calls {@link #untrack} right after (a quorum call's futures: no dependent future per call); the
     * order of the two does not matter.
     */
    void track(CompletableFuture<?> work) {
        cleanups.add(work);
        if (work.isDone()) cleanups.remove(work);   // completed (and untracked) before it was added
    }

    /** {@code work}, tracked or not, has completed: close() no longer waits for it. */
    void untrack(CompletableFuture<?> work) {
        cleanups.remove(work);
    }

    /** The tracked work not finished yet (see {@link #track}). */
    List<CompletableFuture<?>> cleanups() { return List.copyOf(cleanups); }

    private volatile long roundEstimateNanos;
    private final LongAdder rounds = new LongAdder();

    /** Acquire rounds started by this instance (for tests and diagnostics). */
    long roundsStarted() { return rounds.sum(); }

    void roundStarted() { rounds.increment(); }

    /** Recent duration of an acquire round (moving average), 0 before the first. */
    long roundEstimateNanos() { return roundEstimateNanos; }

    void observeRound(long nanos) {
        long old = roundEstimateNanos;
        roundEstimateNanos = old == 0 ? nanos : old + (nanos - old) / 8;
    }

    /** When node settings are checked and what a failed check does. */
    PreflightGate preflight() { return preflight; }

    /** Highest fence value seen per resource: the guess for one-round fencing. */
    TokenHints tokenHints() { return tokenHints; }

    /** Wake-ups of waiting acquisitions when a holder releases (pub/sub), with polling as the fallback. */
    ReleaseSignals releases() { return releases; }

    String lockKey(String resource) { return resourceKeys.of(resource).lock(); }

    /** The resource's lock key, fence entry (a string with a TTL, see {@link LuaScript}) and wake-up channel. */
    ResourceKeys.Keys keys(String resource) { return resourceKeys.of(resource); }

    /** ACQUIRE's arguments for this TTL and quarantine (the last ones made are kept). */
    ScriptArgs scriptArgs(long ttlMs, long quarantineMs) {
        ScriptArgs a = scriptArgs;
        if (a.isFor(ttlMs, quarantineMs)) return a;
        a = ScriptArgs.of(ttlMs, quarantineMs);
        scriptArgs = a;
        return a;
    }

    /** This process's wall clock, microseconds since the epoch. */
    long wallMicros() { return wallMicros.getAsLong(); }

    static long systemMicros() {
        return Seams.systemMicros();
    }

    /** What makes this instance's run nondeterministic (clocks, randomness, executors). */
    Seams seams() { return seams; }

    /** The quarantine to ask nodes for: the larger of ours and the strictest any node has told us about. */
    long knownQuarantineMs() { return knownQuarantineMs.get(); }

    void sawQuarantine(long ms) { knownQuarantineMs.accumulateAndGet(ms, Math::max); }

    /** Acquisitions that needed the second fencing phase (the guess did not win), for tests and diagnostics. */
    long fencePhases() { return fencePhases.sum(); }

    void fencePhaseRan() { fencePhases.increment(); }

    String markerKey() { return markerKey; }

    String releasedChannel(String resource) { return resourceKeys.of(resource).channel(); }

    /** A fresh 128-bit random owner value (SecureRandom), hex. */
    static String newOwner() {
        return Seams.PRODUCTION.newOwner();
    }

    /** A fresh 128-bit random owner value from this instance's seams (SecureRandom in production), hex. */
    String newOwnerValue() {
        return seams.newOwner();
    }

    /** {@code retryDelay} plus uniform jitter in [-retryJitter, +retryJitter], never negative. */
    long retryDelayNanos() {
        long delay = config.retryDelay().toNanos();
        long jitter = config.retryJitter().toNanos();
        long offset = jitter == 0 ? 0 : seams.nextLong(-jitter, jitter + 1);
        return Math.max(0, delay + offset);
    }

    /**
     * Token-checked delete on the given nodes. The call's {@code settled()} completes when each answered or timed out;
     * its {@code quorumAnswered()} as soon as a quorum answered.
     */
    QuorumCall release(String resource, String owner, int[] targets) {
        return release(resource, owner, targets, true);
    }

    /** As {@link #release(String, String, int[])}; {@code wakeWaiters=false} publishes no release message. */
    QuorumCall release(String resource, String owner, int[] targets, boolean wakeWaiters) {
        ResourceKeys.Keys k = resourceKeys.of(resource);
        Object[] release = NodeClient.scriptCommand(LuaScript.RELEASE, 1, 3);
        release[3] = k.lock();
        release[4] = owner;
        release[5] = k.channel();
        release[6] = wakeWaiters ? "1" : "0";
        return releaseCall(LuaScript.RELEASE, release, targets);
    }

    /** A release script command ({@code release}, of {@code script}) sent to {@code targets}; every answer counts. */
    QuorumCall releaseCall(LuaScript script, Object[] release, int[] targets) {
        QuorumCall call = QuorumCall.start(this, RedlockListener.Operation.RELEASE, targets, true, ticker.nanoTime(),
                n -> n.eval(script, release), LeaseCore::ours, QuorumCall.LateGrants.IGNORE);
        track(call.allAnswered());
        return call;
    }

    /**
     * Validates a lease TTL against the config and returns it in whole milliseconds (what the nodes get as PX, so
     * validity is never computed on a longer TTL than the keys have): it must leave validity after the drift
     * allowance, and must not exceed the restart quarantine (else a node that forgot a lease could grant it again
     * while it is still valid).
     */
    Duration checkTtl(Duration ttl) {
        if (ttl == null) throw new IllegalArgumentException("ttl must not be null");
        if (ttl.compareTo(Duration.ofDays(1)) > 0) {
            throw new IllegalArgumentException("ttl must be <= 24h, got " + Durations.human(ttl));
        }
        Duration whole = ttl.isNegative() || ttl.getNano() % 1_000_000 == 0 ? ttl : Duration.ofMillis(ttl.toMillis());
        long drift = whole.isNegative() ? 0 : config.driftNanos(whole);
        if (whole.isNegative() || whole.toNanos() <= drift || whole.toMillis() < 1) {
            throw new IllegalArgumentException("ttl must be greater than the drift allowance ttl*driftFactor+fixedDrift ("
                    + Durations.human(Duration.ofNanos(drift)) + ") and at least 1ms, got " + Durations.human(ttl));
        }
        Duration q = config.restartQuarantine();
        if (!q.isZero() && whole.compareTo(q) > 0) {
            throw new IllegalArgumentException("ttl must be <= restartQuarantine (" + Durations.human(q)
                    + ") while the amnesia guard is on, got " + Durations.human(ttl)
                    + "; raise restartQuarantine or shorten the ttl");
        }
        return whole;
    }
}
