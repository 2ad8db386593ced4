package dev.redlock.sim;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;
import org.luaj.vm2.LuaString;

/**
 * A model of one Redis server on a {@link SimScheduler}'s virtual time: strings and hashes with millisecond expiry
 * on the node's own clock, the commands the library and its Lua scripts send (scripts run in a JVM Lua interpreter,
 * atomically), {@code INFO}, persistence ({@link Persistence}), restarts with a new {@code run_id}, replicas with
 * promotion and failback, eviction, pause, and a clock with its own offset and rate. Replies and error texts follow
 * the Redis version it reports (6.2 or 7.x wording), checked against real servers by the module's differential
 * test.
 *
 * <p>What it does not model (see the module's README): other data types, databases other than 0, ACLs, cluster
 * mode, client-side timeouts, a script's time limit, blocking commands, RESP3, exact memory accounting.
 *
 * <p>Not thread-safe: use it on its scheduler's thread (or before the simulation runs).
 */
public final class SimNode {
    private final String name;
    private final int port;
    private final String version;
    private final String valkeyVersion;
    private final boolean v7;
    private final SimScheduler time;
    private final NodeClock clock;
    private final Dataset data = new Dataset(this);
    private final Disk disk = new Disk(this);
    private final Replication repl = new Replication(this);
    private final Map<LuaString, ScriptCache.Compiled> scripts = new HashMap<>();
    private final PubSub channels = new PubSub();
    private final List<Consumer<SimNode>> listeners = new ArrayList<>();
    private final Session fixture = new Session();
    private Function<String, SimNode> resolver = a -> null;
    private Persistence persistence;
    private long maxmemory;
    private String maxmemoryPolicy = "noeviction";
    private boolean replicaReadOnly = true;
    private String requirePass = "";
    private String save = "";
    private boolean running = true;
    private boolean paused;
    private String runId;
    private long startedAtNanos;
    private long commands;
    private int pid;

    private SimNode(Builder b) {
        this.name = b.name;
        this.port = b.port;
        this.version = b.version;
        this.valkeyVersion = b.valkeyVersion;
        this.v7 = !b.version.startsWith("6.");
        this.time = b.scheduler;
        this.clock = new NodeClock(time, b.epochUs);
        this.persistence = b.persistence;
        this.repl.defaultLagNanos = b.replicationLag.toNanos();
        start();
    }

    /** A builder for a node on {@code scheduler}'s virtual time. */
    public static Builder builder(SimScheduler scheduler, String name) {
        return new Builder(scheduler, name);
    }

    /** A node with the defaults (Redis 7.0.15 replies, no persistence, port 6379). */
    public static SimNode create(SimScheduler scheduler, String name) {
        return builder(scheduler, name).build();
    }

    // ---- identity and state ----

    public String name() { return name; }

    /** The host name replicas and {@code INFO} use: the node's name. */
    public String host() { return name; }

    public int port() { return port; }

    /** The Valkey version it reports ({@code INFO server valkey_version}), or null for a Redis server. */
    public String valkeyVersion() { return valkeyVersion; }

    /** The Redis version it reports and whose replies it gives. */
    public String version() {
        return version;
    }

    public String runId() { return runId; }

    /** {@code master_replid}: new on every restart and every promotion. */
    public String replicationId() {
        return repl.replid;
    }

    public boolean isRunning() { return running; }

    public boolean isPaused() {
        return running && paused;
    }

    public boolean isReplica() {
        return repl.upstreamAddress != null;
    }

    public Persistence persistence() { return persistence; }

    /**
     * The live keys (expired ones excluded), in insertion order. Like the {@code peek} methods, for checkers: it
     * changes nothing (no lazy deletion, no LRU stamp, nothing propagated), where a command would.
     */
    public List<String> keys() {
        List<String> out = new ArrayList<>();
        for (LuaString k : data.liveKeys()) out.add(LuaBridge.utf8(k));
        return out;
    }

    /**
     * The live value of {@code key} without side effects: a {@code String}, a {@code Map<String, String>} for a
     * hash (in field order), or null when absent or expired on this node's clock.
     */
    public Object peek(String key) {
        Entry e = data.peek(Replies.bytes(key));
        if (e == null) return null;
        if (e.isString()) return LuaBridge.utf8(e.string());
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<LuaString, LuaString> f : e.hash().entrySet()) out.put(LuaBridge.utf8(f.getKey()), LuaBridge.utf8(f.getValue()));
        return out;
    }

    /** The milliseconds {@code key} has left on this node's clock, without side effects: -2 absent, -1 no TTL. */
    public long peekTtlMillis(String key) {
        Entry e = data.peek(Replies.bytes(key));
        if (e == null) return -2;
        return e.expireAtMs < 0 ? -1 : Math.max(0, e.expireAtMs - clock.millis());
    }

    // ---- commands ----

    /**
     * Runs one command directly (a fixture's channel, no network): the reply as {@code NodeTransport} gives it
     * ({@code Long}, {@code String}, {@code List<Object>}, null).
     *
     * @throws SimRedisException        on an error reply (message = the error text)
     * @throws SimConnectionException   when the node is down
     * @throws IllegalStateException    when it is paused (a paused process answers nothing)
     */
    public Object command(String... args) {
        if (!running) throw new SimConnectionException(name + " is down");
        if (paused) throw new IllegalStateException(name + " is paused: it answers nothing until resumed");
        return Replies.toTransport(execute(fixture, Replies.args(args)));
    }

    /** Runs a command from a client connection (the node must be running and not paused). */
    Object execute(Session session, LuaString[] args) {
        commands++;
        Command c = Command.lookup(args[0]);
        if (c == null) return Args.unknownCommand(args, v7);
        if (!c.arityOk(args.length)) return Args.wrongArity(c.name());
        if (!requirePass.isEmpty() && !session.authenticated && !c.name().equals("auth")) {
            return new ErrorReply("NOAUTH Authentication required.");
        }
        if (maxmemory > 0 && !data.makeRoom() && c.is(Command.DENYOOM)) return ErrorReply.OOM;
        if (c.is(Command.WRITE) && isReplica() && replicaReadOnly) return ErrorReply.READONLY;
        return c.handler().run(this, args, session);
    }

    /** {@code redis.call} from a script: the scripting layer's checks, then the command. */
    Object scriptCall(LuaString[] args) {
        Command c = Command.lookup(args[0]);
        if (c == null) return LuaBridge.layerError(this, "ERR Unknown Redis command called from script");
        if (c.is(Command.NOSCRIPT)) return LuaBridge.layerError(this, "ERR This Redis command is not allowed from script");
        if (!c.arityOk(args.length)) return LuaBridge.layerError(this, "ERR Wrong number of args calling Redis command from script");
        if (c.is(Command.WRITE) && isReplica() && replicaReadOnly) return new ErrorReply(ErrorReply.READONLY.text(), true);
        if (c.is(Command.DENYOOM) && maxmemory > 0 && !data.wroteInScript && data.usedMemory() > maxmemory) {
            return new ErrorReply(ErrorReply.OOM.text(), true);
        }
        return c.handler().run(this, args, fixture);
    }

    /** Runs a compiled script (the caller checked it is known). */
    Object runScript(ScriptCache.Compiled script, LuaString[] keys, LuaString[] argv) {
        data.wroteInScript = false;
        return LuaBridge.current().run(this, script, keys, argv);
    }

    /** Takes another server's identity (a test comparing this model with a real server needs the same ids). */
    void identity(String runId, String replicationId) {
        this.runId = runId;
        repl.replid = replicationId;
    }

    // ---- faults: process ----

    /** SIGKILL: the process dies; connections drop; memory is lost, the disk keeps what was written. */
    public void kill() {
        die();
        disk.processDied();
    }

    /** The machine loses power: like {@link #kill()}, and what the AOF had not fsynced is lost too. */
    public void powerLoss() {
        die();
        disk.machineDied();
    }

    private void die() {
        if (!running) return;
        running = false;
        paused = false;
        channels.clear();
        repl.died();
        notifyListeners();
    }

    /**
     * Starts the process again: a new {@code run_id} and {@code master_replid}, the data this node's
     * {@link Persistence} keeps, no scripts loaded; a replica syncs again from its master, and its own replicas
     * resync from it.
     *
     * @throws IllegalStateException when it is running
     */
    public void restart() {
        if (running) throw new IllegalStateException(name + " is running: kill it first");
        start();
        notifyListeners();
    }

    private void start() {
        running = true;
        paused = false;
        runId = randomId();
        startedAtNanos = time.nanoTime();
        pid = 1000 + time.random().nextInt(60000);
        scripts.clear();
        data.replace(disk.load());
        data.reapExpired();
        disk.rewrite(data.keyspace());
        disk.start();
        repl.restarted(randomId());
    }

    /** SIGSTOP: the node answers nothing and applies no replication until {@link #resume()}; requests queue. */
    public void pause() {
        if (!running) return;
        paused = true;
        notifyListeners();
    }

    /** SIGCONT: queued requests and replication run in order. */
    public void resume() {
        if (!running || !paused) return;
        paused = false;
        if (repl.upstream != null) repl.upstream.drain();
        notifyListeners();
    }

    // ---- faults: clock ----

    /** This node's clock reading, microseconds since the epoch (what {@code TIME} answers). */
    public long clockMicros() {
        return clock.micros();
    }

    /** Sets the node's clock offset (a step when it changes). Any moment, even mid-run. */
    public void clockOffset(Duration offset) {
        clock.offsetNanos(offset.toNanos());
    }

    /** From now on, the node's clock advances {@code rate} seconds per virtual second (e.g. 1.01 = 1% fast). */
    public void clockRate(double rate) {
        clock.rate(rate);
    }

    // ---- faults: persistence and memory ----

    /** Takes an RDB snapshot now (what {@code SAVE} does); {@link Persistence#RDB} restarts from the last one. */
    public void snapshot() {
        disk.snapshot(data.keyspace());
    }

    /** Changes what a restart reloads; turning AOF on rewrites the log from the current data. */
    public void persistence(Persistence p) {
        boolean wasAof = persistence.aof();
        persistence = Objects.requireNonNull(p, "persistence");
        if (p.aof() && !wasAof) disk.rewrite(data.keyspace());
        if (running) disk.start();
    }

    /** Evicts {@code key} now, as the eviction policy would (propagated as a deletion); false when absent. */
    public boolean evict(String key) {
        return data.evict(LuaString.valueOf(key));
    }

    /** Sets maxmemory (bytes of the model's rough accounting; 0 = no limit) and the eviction policy. */
    public void maxmemory(long bytes, String policy) {
        String error = ServerCommands.checkPolicy(policy);
        if (error != null) throw new IllegalArgumentException(error);
        this.maxmemory = bytes;
        this.maxmemoryPolicy = policy;
    }

    // ---- replication ----

    /**
     * Makes this node a replica of {@code master}: a full sync now (this node's data replaced by a copy of the
     * master's, its replication id taken), then the master's changes after {@link #replicationLag(Duration)}.
     */
    public void replicaOf(SimNode master) {
        if (master == this) throw new IllegalArgumentException("a node cannot replicate itself");
        replicaOf(master.host() + ":" + master.port(), master);
    }

    void replicaOf(String address, SimNode master) {
        repl.replicaOf(address, master);
    }

    /** {@code REPLICAOF NO ONE}: a master again, with a new replication id; it keeps its data and run_id. */
    public void promote() {
        if (isReplica()) repl.promote(randomId());
    }

    /** The delay of the replication stream into this replica (default 0). */
    public void replicationLag(Duration lag) {
        repl.defaultLagNanos = lag.toNanos();
        if (repl.upstream != null) repl.upstream.lagNanos = repl.defaultLagNanos;
    }

    /** Cuts this replica's link to its master: changes wait in the master's backlog. */
    public void cutReplicationLink() {
        if (repl.upstream != null) repl.upstream.cut = true;
    }

    /** Restores the link: the backlog is sent (partial resync). */
    public void restoreReplicationLink() {
        if (repl.upstream != null) repl.upstream.restore();
    }

    void applyReplicated(Effect e) {
        repl.applyReplicated(e);
    }

    void propagate(LuaString key, Entry current) {
        repl.propagate(key, current);
    }

    void propagateFlush() {
        repl.propagateFlush();
    }

    // ---- for the network and the commands ----

    void addListener(Consumer<SimNode> l) {
        listeners.add(l);
    }

    private void notifyListeners() {
        for (Consumer<SimNode> l : List.copyOf(listeners)) l.accept(this);
    }

    void resolver(Function<String, SimNode> r) {
        this.resolver = r;
    }

    SimNode resolve(String address) {
        return resolver.apply(address);
    }

    private String randomId() {
        StringBuilder b = new StringBuilder(40);
        for (int i = 0; i < 40; i++) b.append(Character.forDigit(time.random().nextInt(16), 16));
        return b.toString();
    }

    PubSub channels() { return channels; }
    SimScheduler scheduler() { return time; }
    NodeClock clock() { return clock; }
    Dataset data() { return data; }
    Disk disk() { return disk; }
    Map<LuaString, ScriptCache.Compiled> scripts() { return scripts; }
    boolean v7() { return v7; }
    long maxmemory() { return maxmemory; }
    String maxmemoryPolicy() { return maxmemoryPolicy; }
    void maxmemoryConfig(long bytes, String policy) { maxmemory = bytes; maxmemoryPolicy = policy; }
    boolean replicaReadOnly() { return replicaReadOnly; }
    void replicaReadOnly(boolean ro) { replicaReadOnly = ro; }
    String requirePass() { return requirePass; }
    void requirePass(String p) { requirePass = p; }
    String save() { return save; }
    void save(String s) { save = s; }
    Replication replication() { return repl; }
    String replid2() { return repl.replid2; }
    long replOffset() { return repl.offset; }
    long secondReplOffset() { return repl.secondOffset; }
    long uptimeSeconds() { return (time.nanoTime() - startedAtNanos) / 1_000_000_000L; }
    long commandsProcessed() { return commands; }
    int pid() { return pid; }
    String upstreamAddress() { return repl.upstreamAddress; }
    ReplicationLink upstream() { return repl.upstream; }
    List<ReplicationLink> replicaLinks() { return repl.replicas; }

    @Override
    public String toString() {
        return "SimNode[" + name + (running ? "" : ", down") + (paused ? ", paused" : "") + (isReplica() ? ", replica of " + repl.upstreamAddress : "") + "]";
    }

    /** Mutable, reusable builder of {@link SimNode}s. Not thread-safe. */
    public static final class Builder {
        private final SimScheduler scheduler;
        private final String name;
        private int port = 6379;
        private String version = "7.0.15";
        private String valkeyVersion;
        private Persistence persistence = Persistence.NONE;
        private long epochUs = NodeClock.DEFAULT_EPOCH_US;
        private Duration replicationLag = Duration.ZERO;

        private Builder(SimScheduler scheduler, String name) {
            this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
            if (name == null || name.isBlank() || name.contains(":")) throw new IllegalArgumentException("name must be a non-blank host name without ':', got " + name);
            this.name = name;
        }

        /** The port it reports ({@code INFO server tcp_port}, replica addresses); default 6379. */
        public Builder port(int port) {
            if (port < 1 || port > 65535) throw new IllegalArgumentException("port must be in 1..65535, got " + port);
            this.port = port;
            return this;
        }

        /** The Redis version whose replies it gives: a 6.2.x or 7.x version string; default 7.0.15. */
        public Builder version(String version) {
            if (version == null || !version.matches("[67]\\.\\d+\\.\\d+")) throw new IllegalArgumentException("version must be 6.x.y or 7.x.y, got " + version);
            this.version = version;
            return this;
        }

        /**
         * A Valkey server of that version (8.x): it reports {@code redis_version:7.2.4}, {@code server_name:valkey}
         * and {@code valkey_version}, and words {@code NOSCRIPT} as Valkey does; otherwise Redis 7's replies.
         */
        public Builder valkey(String valkeyVersion) {
            if (valkeyVersion == null || !valkeyVersion.matches("[89]\\.\\d+\\.\\d+")) throw new IllegalArgumentException("valkey version must be 8.x.y or 9.x.y, got " + valkeyVersion);
            this.valkeyVersion = valkeyVersion;
            this.version = "7.2.4";
            return this;
        }

        public Builder persistence(Persistence p) {
            this.persistence = Objects.requireNonNull(p, "persistence");
            return this;
        }

        /** Where its clock starts (microseconds since the Unix epoch); default 2025-06-01T00:00:00Z. */
        public Builder epochMicros(long epochUs) {
            this.epochUs = epochUs;
            return this;
        }

        /** The replication lag it gets when made a replica; default 0. */
        public Builder replicationLag(Duration lag) {
            if (lag.isNegative()) throw new IllegalArgumentException("replicationLag must be >= 0, got " + lag);
            this.replicationLag = lag;
            return this;
        }

        public SimNode build() {
            return new SimNode(this);
        }
    }
}
