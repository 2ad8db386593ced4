package dev.redlock;

import dev.redlock.internal.Failures;
import dev.redlock.internal.RedlockInternals;
import dev.redlock.internal.Resources;
import dev.redlock.internal.Seams;
import dev.redlock.internal.Ticker;
import dev.redlock.internal.resp.ConnectionCheck;
import dev.redlock.spi.NodeTransport;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Distributed locks over N independent Redis masters (the Redlock algorithm), with fencing tokens.
 *
 * <p><b>How it acquires.</b> One round sends one Lua script ({@code SET key owner NX PX ttl}, plus the node's fence
 * value) to every node at once and decides as soon as {@code quorum} nodes granted or a quorum became impossible.
 * Validity is {@code ttl - elapsed - (ttl*driftFactor + fixedDrift)} on {@link System#nanoTime()}; a round that
 * leaves none fails. With fencing on, the token is {@code max(fence of the granting nodes) + 1}, written back to a
 * quorum before the lease is returned. A failed round releases every node that may hold its value and is retried,
 * up to {@code retryCount} times: when the lock was held, as soon as the holder's release is announced (pub/sub on
 * the nodes; the woken round is a normal quorum round) or after {@code retryDelay ± retryJitter}, whichever comes
 * first; after a split vote, after a short random pause.
 *
 * <p><b>What it guarantees.</b> While a {@link Lease} is valid, no other lease on the same resource is valid, as long
 * as node clocks do not run faster than the drift allowance, nodes cannot evict lock keys, and a node whose memory
 * changed identity (restart, snapshot, failover, flush) stays out for the strictest restart quarantine any client
 * stored on the nodes (it does). Fencing tokens of successive holders strictly increase (see
 * {@link Lease#fencingToken()} for the clock assumption). {@link Preflight} checks the node settings at creation.
 *
 * <p><b>What it does not guarantee.</b> No timeout-based lock is safe on its own: a process pause after a validity
 * check lets two clients act at once. Protect data with the fencing token. After a timed-out round, a key may
 * persist on a node that answered too late until its TTL ends (it delays the next holder, it is never a second
 * holder). Redis Cluster and Sentinel-managed masters are not supported.
 *
 * <p><b>Several resources at once.</b> {@link #acquireAll} grants a set of resources all or nothing, one script per
 * node and round, with a token per resource ({@link MultiLease}).
 *
 * <p>Thread-safe; create one per process and share it. Futures of {@link #acquireAsync} complete on internal I/O
 * threads: do not block in their callbacks.
 *
 * <p>Example: {@code dev.redlock.examples.ContendingClientsDemo} in {@code redlock-examples}.
 */
public final class Redlock implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Redlock.class);
    private static final AtomicInteger INSTANCES = new AtomicInteger();

    static {
        RedlockInternals.install(new InternalBridge());
    }

    private final RedlockContext ctx;
    private final QuorumAcquirer acquirer;
    private final EventLoopGroup ownedGroup;
    private final AtomicBoolean closed = new AtomicBoolean();

    private Redlock(RedlockContext ctx, EventLoopGroup ownedGroup) {
        this.ctx = ctx;
        this.acquirer = new QuorumAcquirer(ctx);
        this.ownedGroup = ownedGroup;
    }

    /**
     * Connects to every node with the library's own transport (one multiplexed connection per node, plus one for
     * release wake-ups, all on one I/O thread) and returns once every reachable node is connected, waiting at most
     * about the connect timeout ({@code max(1s, nodeTimeout)}), for all nodes in parallel. Succeeds while nodes are
     * unreachable: they count as failed votes and are reconnected in the background. Then runs the preflight checks
     * on every node that answers ({@link RedlockConfig#preflight()}).
     *
     * <p>Clients the application already manages (Redisson): {@code dev.redlock.redisson.RedissonRedlock.create} in
     * the {@code redlock-redisson} module.
     *
     * @throws RedlockException in {@link Preflight#STRICT} mode, when a node's settings break the guarantees; the
     *                          message names each such node ({@code host:port}) and setting with its value
     */
    public static Redlock create(RedlockConfig config) {
        return create(config, Seams.PRODUCTION, ConnectionCheck.NONE);
    }

    static Redlock create(RedlockConfig config, Ticker ticker) {
        return create(config, Seams.builder().ticker(ticker).build(), ConnectionCheck.NONE);
    }

    /** With an injected monotonic clock and wall clock (microseconds), for tests. */
    static Redlock create(RedlockConfig config, Ticker ticker, LongSupplier wallMicros) {
        return create(config, Seams.builder().ticker(ticker).wallMicros(wallMicros).build(), ConnectionCheck.NONE);
    }

    /** As {@link #create(RedlockConfig)}, with a check run on every new connection before it serves lock commands. */
    static Redlock create(RedlockConfig config, Ticker ticker, ConnectionCheck check) {
        return create(config, Seams.builder().ticker(ticker).build(), check);
    }

    /** The library's own transport, with the given seams (see {@link Seams}) and connection check. */
    @SuppressWarnings("deprecation")   // NioEventLoopGroup: deprecated in Netty 4.2, the one NIO group in both 4.1 and 4.2
    static Redlock create(RedlockConfig config, Seams seams, ConnectionCheck check) {
        Objects.requireNonNull(config, "config");
        int id = INSTANCES.incrementAndGet();
        // One I/O thread: a lock client sends a few small commands per round, and on one loop a round's sends,
        // replies, decision and fencing phase never cross threads.
        // Netty's thread factory: its FastThreadLocalThreads get the buffer pool's and recyclers' thread caches
        // (on a plain thread Netty 4.2 allocates instead, about 3 KB per acquire+release)
        EventLoopGroup group = new NioEventLoopGroup(1, new DefaultThreadFactory("redlock-" + id + "-io", true));
        EventLoop loop = group.next();
        List<NodeClient> nodes = new ArrayList<>();
        try {
            List<NodeAddress> addrs = config.allNodeAddresses();
            for (int i = 0; i < addrs.size(); i++) nodes.add(NodeClient.create(i, addrs.get(i), config, loop, check));
        } catch (RuntimeException e) {
            nodes.forEach(NodeClient::shutdown);
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            throw new RedlockException("could not create the Redis clients: " + e.getMessage(), e);
        }
        Redlock r = new Redlock(RedlockContext.create(config, nodes, seams, id, loop), group);
        // connect every node in parallel, bounded by the connect timeout: a node that is down or stalled delays
        // start-up once, not once per node
        CompletableFuture<?>[] connects = nodes.stream().map(NodeClient::connect).toArray(CompletableFuture[]::new);
        try {
            CompletableFuture.allOf(connects).get(NodeClient.connectTimeoutMs(config) + 500, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            log.debug("not every node was connected at start-up", e);
        }
        return r.started();
    }

    /** After the nodes were connected: the membership descriptions published (and kept), then preflight. */
    private Redlock started() {
        ctx.membership().publish(ctx);
        long every = Membership.DESCRIPTION_TTL_MS / 2;
        ctx.scheduler().schedule(() -> republish(every), every, TimeUnit.MILLISECONDS);
        return preflight();
    }

    /** Publishes the membership descriptions again every {@code every} ms, while the instance is open. */
    private void republish(long every) {
        if (closed.get()) return;
        ctx.membership().publish(ctx);
        try {
            ctx.scheduler().schedule(() -> republish(every), every, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            // closed meanwhile
        }
    }

    /**
     * Runs the preflight checks on every node ({@link RedlockConfig#preflight()}); in STRICT mode, closes this
     * instance and throws when a node is refused.
     */
    private Redlock preflight() {
        Duration wait = ctx.config().nodeTimeout().multipliedBy(10).plusMillis(NodeClient.connectTimeoutMs(ctx.config()));
        List<PreflightFinding> refused = ctx.preflight().atCreate(wait);
        if (refused.isEmpty()) return this;
        close();
        StringBuilder msg = new StringBuilder("preflight refused ").append(refused.size()).append(" finding(s): ");
        for (int i = 0; i < refused.size(); i++) msg.append(i == 0 ? "" : "; ").append(refused.get(i).message());
        throw new RedlockException(msg.toString());
    }

    /**
     * For adapter modules, not applications: a Redlock over transports the adapter provides, one per node in the
     * order of {@code config.nodes()}, then the nodes of {@code config.previousNodes()} that are not in it (see
     * {@link NodeTransport}). {@link #close()} calls each transport's
     * {@code close()}. Runs the preflight checks like {@link #create(RedlockConfig)}.
     *
     * @throws IllegalArgumentException when the number of transports differs from the number of nodes
     * @throws RedlockException         in {@link Preflight#STRICT} mode, when a node's settings break the guarantees
     */
    public static Redlock create(RedlockConfig config, List<? extends NodeTransport> transports) {
        return create(config, transports, Seams.PRODUCTION);
    }

    /** As {@link #create(RedlockConfig, List)}, with the given seams (the deterministic simulator's path). */
    static Redlock create(RedlockConfig config, List<? extends NodeTransport> transports, Seams seams) {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(transports, "transports");
        if (transports.size() != config.allNodeAddresses().size()) {
            throw new IllegalArgumentException("transports must have one transport per node (N="
                    + config.allNodeAddresses().size() + "), got " + transports.size());
        }
        List<NodeClient> nodes = new ArrayList<>();
        for (int i = 0; i < transports.size(); i++) {
            nodes.add(NodeClient.over(i, config.allNodeAddresses().get(i).redacted(),
                    Objects.requireNonNull(transports.get(i), "transports[" + i + "]")));
        }
        return new Redlock(RedlockContext.create(config, nodes, seams, INSTANCES.incrementAndGet(), null), null).started();
    }

    /** The configuration this instance runs with. */
    public RedlockConfig config() {
        return ctx.config();
    }

    /**
     * Registers a listener for this instance's events from now on (acquisitions, node requests, leases, watchdog,
     * leader elections on it). Listeners are called on the library's threads and must not block: see
     * {@link RedlockListener}. Adding the same listener twice calls it twice.
     */
    public void addListener(RedlockListener listener) {
        ctx.listeners().add(listener);
    }

    /** Removes a listener added by {@link #addListener} (one registration of it); false when it was not registered. */
    public boolean removeListener(RedlockListener listener) {
        return ctx.listeners().remove(listener);
    }

    /**
     * Acquires the lock, retrying up to {@code retryCount} times.
     *
     * @param resource name of the thing to lock (1..1024 characters, not starting with {@code __})
     * @param ttl      how long the lock lives on the nodes; must exceed the drift allowance and, with the amnesia
     *                 guard on, not exceed {@code restartQuarantine}
     * @throws LockUnavailableException    when no round reached a quorum with validity left; carries every node's
     *                                      outcome of the last round
     * @throws MembershipConflictException a node serves a client with another node list (not retried)
     * @throws IllegalArgumentException     on a bad resource name or TTL
     * @throws IllegalStateException        after {@link #close()}, or when called on the library's I/O thread (in a
     *                                      callback of a future it completed): use {@link #acquireAsync} there
     */
    public Lease acquire(String resource, Duration ttl) {
        ctx.checkMayBlock("Redlock.acquire()", "Redlock.acquireAsync()");
        int rounds = ctx.config().retryCount() + 1;
        // the acquisition itself (no caller-side future): await cancels it when interrupted, as tryAcquire does
        return BlockingWait.await(ctx, start(resource, ttl, rounds, RedlockListener.AcquireMode.BLOCKING), resource, rounds);
    }

    /**
     * One round, no retries: the lease, or empty when the lock is held elsewhere or no quorum answered in time.
     * {@link #attempt} says why it failed.
     *
     * @throws MembershipConflictException a node serves a client with another node list: a configuration error
     * @throws IllegalArgumentException     on a bad resource name or TTL
     * @throws IllegalStateException        after {@link #close()}, or on the library's I/O thread (see {@link #acquire})
     */
    public Optional<Lease> tryAcquire(String resource, Duration ttl) {
        ctx.checkMayBlock("Redlock.tryAcquire()", "Redlock.acquireAsync()");
        try {
            return Optional.of(BlockingWait.await(ctx, start(resource, ttl, 1, RedlockListener.AcquireMode.TRY), resource, 1));
        } catch (MembershipConflictException e) {
            throw e;
        } catch (LockUnavailableException e) {
            return Optional.empty();
        }
    }

    /**
     * One round, no retries, like {@link #tryAcquire}, without an exception when the lock is unavailable: the
     * attempt holds the lease, or the reason with every node's outcome of the round
     * ({@link LockAttempt#failure()}, a {@link MembershipConflictException} on a configuration conflict).
     *
     * @throws IllegalArgumentException on a bad resource name or TTL
     * @throws IllegalStateException    after {@link #close()}, or on the library's I/O thread (see {@link #acquire})
     */
    public LockAttempt attempt(String resource, Duration ttl) {
        ctx.checkMayBlock("Redlock.attempt()", "Redlock.acquireAsync()");
        try {
            return LockAttempt.of(BlockingWait.await(ctx, start(resource, ttl, 1, RedlockListener.AcquireMode.TRY), resource, 1));
        } catch (LockUnavailableException e) {
            return LockAttempt.failed(e);
        }
    }

    /**
     * Asynchronous {@link #acquire}: completes with the lease or with a {@link LockUnavailableException}. Cancelling
     * the future abandons the attempt: no further round starts, and a lease a round in flight obtains anyway is
     * released at once. {@link #close()} completes it with a {@link RedlockException}.
     */
    public CompletableFuture<Lease> acquireAsync(String resource, Duration ttl) {
        return startAsync(resource, ttl, ctx.config().retryCount() + 1, RedlockListener.AcquireMode.ASYNC);
    }

    /** An acquisition of up to {@code rounds} rounds as the caller's future: cancelling it cancels the acquisition. */
    CompletableFuture<Lease> startAsync(String resource, Duration ttl, int rounds, RedlockListener.AcquireMode mode) {
        return handedOver(start(resource, ttl, rounds, mode));
    }

    /**
     * The caller's future of an acquisition: completed with its lease or its failure; cancelling it cancels the
     * acquisition itself (a dependent future would not), and a lease that arrives after that is released.
     */
    @SuppressWarnings("unchecked")   // T is the API type the lease implements (Lease, MultiLease)
    private static <T> CompletableFuture<T> handedOver(CompletableFuture<? extends LeaseCore> acquisition) {
        CompletableFuture<T> out = new CompletableFuture<>();
        acquisition.whenComplete((lease, e) -> {
            if (e != null) out.completeExceptionally(Failures.unwrap(e));
            else if (!out.complete((T) lease)) lease.releaseAsync();     // cancelled meanwhile
        });
        out.whenComplete((l, e) -> {
            if (out.isCancelled()) acquisition.cancel(false);
        });
        return out;
    }

    /**
     * Acquires every one of {@code resources} at once, all or nothing, retrying up to {@code retryCount} times like
     * {@link #acquire}; a round holds nothing while it waits, so callers locking overlapping sets in any order never
     * deadlock. See {@link MultiLease} for what it guarantees.
     *
     * @param resources 1 to 64 distinct resource names, each as {@link #acquire} takes it (the same lock keys: a
     *                  {@link Lease} on one of them excludes this lease, and tokens per resource increase across both)
     * @param ttl       as for {@link #acquire}
     * @throws LockUnavailableException    when no round reached a quorum that granted every resource with validity
     *                                      left; its message names the resources, its outcomes each node's answer
     * @throws MembershipConflictException a node serves a client with another node list (not retried)
     * @throws IllegalArgumentException     on a bad, repeated or missing resource name, too many names, or a bad TTL
     * @throws IllegalStateException        after {@link #close()}, or on the library's I/O thread: use
     *                                      {@link #acquireAllAsync} there
     */
    public MultiLease acquireAll(Collection<String> resources, Duration ttl) {
        ctx.checkMayBlock("Redlock.acquireAll()", "Redlock.acquireAllAsync()");
        int rounds = ctx.config().retryCount() + 1;
        CompletableFuture<HeldMultiLease> acquisition = startAll(resources, ttl, rounds, RedlockListener.AcquireMode.BLOCKING);
        return BlockingWait.await(ctx, acquisition, String.valueOf(resources), rounds);
    }

    /**
     * Asynchronous {@link #acquireAll}: completes with the lease or with a {@link LockUnavailableException}.
     * Cancelling the future abandons the attempt (a lease a round in flight obtains anyway is released at once);
     * {@link #close()} completes it with a {@link RedlockException}.
     *
     * @throws IllegalArgumentException on bad resources or TTL (as {@link #acquireAll})
     * @throws IllegalStateException    after {@link #close()}
     */
    public CompletableFuture<MultiLease> acquireAllAsync(Collection<String> resources, Duration ttl) {
        return handedOver(startAll(resources, ttl, ctx.config().retryCount() + 1, RedlockListener.AcquireMode.ASYNC));
    }

    private CompletableFuture<HeldMultiLease> startAll(Collection<String> resources, Duration ttl, int rounds,
                                                       RedlockListener.AcquireMode mode) {
        ResourceSet set = ResourceSet.of(ctx, resources);
        Duration whole = ctx.checkTtl(ttl);
        if (closed.get()) throw new IllegalStateException("Redlock is closed");
        return acquirer.acquire(new AcquireAllRound(ctx, set, whole), rounds, mode);
    }

    /**
     * Starts an acquisition of up to {@code rounds} rounds; cancelling the future abandons it (see QuorumAcquirer).
     * {@code mode} is what listeners are told started it.
     */
    CompletableFuture<HeldLease> start(String resource, Duration ttl, int rounds, RedlockListener.AcquireMode mode) {
        Resources.check(resource);
        Duration whole = ctx.checkTtl(ttl);
        if (closed.get()) throw new IllegalStateException("Redlock is closed");
        return acquirer.acquire(new AcquireRound(ctx, resource, whole), rounds, mode);
    }

    /**
     * A {@link java.util.concurrent.locks.Lock} on {@code resource}: re-entrant per thread, held by the watchdog
     * (extended every ttl/3) from the first {@code lock} to the last {@code unlock}, with a
     * {@linkplain RedlockLock#fencingToken() fencing token}. No Redis call is made until it is locked. Share one
     * instance per resource between the threads of this process; see {@link RedlockLock} for every rule.
     *
     * @param resource name of the thing to lock (1..1024 characters, not starting with {@code __})
     * @param ttl      the lease TTL: how long the nodes keep the lock if this process dies; the same range as for
     *                 {@link #acquire}
     * @throws IllegalArgumentException on a bad resource name or TTL
     */
    public RedlockLock newLock(String resource, Duration ttl) {
        return new RedlockLock(this, resource, ttl);
    }

    /**
     * Acquires the lock, runs {@code task} while a watchdog extends the lease every ttl/3, and releases the lock
     * however the task ends.
     *
     * <p>If the lease is lost while the task runs (an extension could not reach a quorum before the validity ended),
     * {@link Lease#checkValid()} throws from then on, {@link Lease#onLost} listeners run, and when the task returns
     * normally {@code withLock} throws {@link LeaseLostException} instead of returning its result; so it does when
     * {@link #close()} released the lease while the task ran. The task thread is not interrupted, unless the task is
     * wrapped in {@link LockedTask#interruptOnLoss}: check validity before each side effect and fence your writes.
     *
     * @throws LockUnavailableException when the lock could not be acquired (the task did not run)
     * @throws LeaseLostException       when the lease was lost before the task returned
     * @throws E                        whatever the task threw
     */
    public <T, E extends Exception> T withLock(String resource, Duration ttl, LockedTask<T, E> task) throws E {
        return BlockingLocking.withLock(this, resource, ttl, task);
    }

    /**
     * Asynchronous {@link #withLock}: acquires ({@link #acquireAsync}), calls {@code task} with the lease (on the
     * default async executor of {@link CompletableFuture}, never on an I/O thread), keeps the lease extended every
     * ttl/3 while the task's stage runs ({@link Lease#keepAlive()}), and releases it when the stage completes,
     * normally or not, before the returned future completes with the stage's result or failure. No thread waits.
     *
     * <p>If the lease is lost first (an extension could not re-hold a quorum in time, {@code maxHold} was reached,
     * or {@link #close()} took it), the returned future completes exceptionally with {@link LeaseLostException} at
     * once: the task's stage is neither waited for nor cancelled; the task can watch {@link Lease#whenLost()} to stop
     * its work. Cancelling the returned future before the lease is acquired cancels the acquisition (a lease a round
     * still obtains is released); cancelling it while the task runs releases the lease. Either way the task's stage
     * is left alone. The future completes on an internal thread: stages chained to it must not block.
     *
     * @return the stage's result; exceptionally {@link LockUnavailableException} when the lock could not be acquired
     *         (the task was not called), {@link LeaseLostException}, or whatever the task threw or its stage failed with
     * @throws IllegalArgumentException on a bad resource name or TTL
     * @throws IllegalStateException    after {@link #close()}
     */
    public <T> CompletableFuture<T> withLockAsync(String resource, Duration ttl,
                                                  Function<Lease, ? extends CompletionStage<T>> task) {
        return AsyncLocking.withLock(this, resource, ttl, task);
    }

    /**
     * Checks every node now, in parallel, for health endpoints and diagnostics: whether it answers, and what the
     * preflight rules find in its settings (eviction policy, role, clock, version; read with {@code INFO},
     * {@code TIME} and, where {@code INFO} does not say, {@code CONFIG GET}). Blocks up to {@code timeout}; a node
     * that has not answered by then is DOWN. Read-only: what acquisitions do is not changed by it. See
     * {@link RedlockHealth} for what a healthy report does not promise.
     *
     * @throws IllegalArgumentException when {@code timeout} is not positive
     * @throws IllegalStateException    after {@link #close()}, or on the library's I/O thread
     */
    public RedlockHealth checkHealth(Duration timeout) {
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be > 0, got " + timeout);
        }
        if (closed.get()) throw new IllegalStateException("Redlock is closed");
        ctx.checkMayBlock("Redlock.checkHealth()", "a thread of your own");
        return HealthCheck.run(ctx, timeout);
    }

    /**
     * Marks every node whose memory marker is missing as brand-new ("never granted a lock"), so the amnesia guard
     * does not quarantine a fresh deployment. Call it once when the nodes are first deployed, never after a node
     * restart: on a node that lost its memory it would switch the guard off for that node. Call it before the first
     * acquire: the first acquire on an unmarked node records "memory began now", after which this method leaves the
     * node alone and it serves only once its quarantine has passed. Equivalent by hand, on each node that has no
     * {@code <keyPrefix>__node} key yet: {@code HSET <keyPrefix>__node run <run_id> rid <master_replid> born 0 hw 0 q 0},
     * with the node's {@code run_id} from {@code INFO server} and {@code master_replid} from
     * {@code INFO replication} (any other value starts a new identity, quarantined).
     *
     * @return how many nodes were newly marked (nodes that already had a marker are left alone)
     * @throws RedlockException      when a node could not be reached; nodes that were reached stay marked
     * @throws IllegalStateException on the library's I/O thread
     */
    public int markNodesFresh() {
        return FreshMarking.markAll(ctx);
    }

    /**
     * Completes every pending acquisition exceptionally (a {@link RedlockException} saying the instance was closed),
     * waits (about two node timeouts at most) for rounds still in flight, which release whatever they obtain, releases
     * every lease still held by this instance (token-checked; to a holder still running work that is a loss:
     * {@link Lease#whenLost()} completes, {@code withLock} and {@code withLockAsync} report it), then shuts down the clients it created, its scheduler
     * and its event loop. Idempotent.
     *
     * @throws IllegalStateException when called on the library's I/O thread (it would wait for that thread)
     */
    @Override
    public void close() {
        if (closed.get()) return;
        ctx.checkMayBlock("Redlock.close()", "a thread of your own");
        if (!closed.compareAndSet(false, true)) return;
        InstanceClose.run(ctx, ownedGroup);
    }

    RedlockContext context() {
        return ctx;
    }

    @Override
    public String toString() {
        return "Redlock" + ctx.config();
    }
}
