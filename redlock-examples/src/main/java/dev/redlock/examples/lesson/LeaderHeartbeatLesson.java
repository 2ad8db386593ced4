package dev.redlock.examples.lesson;

import dev.redlock.examples.support.ExampleNodes;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.redisson.api.RScript;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

/**
 * Seed 002, on ONE real redis-server: why {@code SETNX} + {@code EXPIRE} is unsafe for leader election, why
 * {@code SET key value NX EX seconds} is not, and how a leader keeps its lease with heartbeats that check its token.
 *
 * <ol>
 *   <li><b>SETNX, then EXPIRE.</b> Process B wins {@code SETNX} and crashes before it sends {@code EXPIRE}: the key
 *       has no TTL ({@code TTL} = -1). Long after the TTL B meant to set, {@code SETNX} still fails for everyone
 *       else: the election is stuck until an operator deletes the key.</li>
 *   <li><b>Atomic SET NX EX.</b> Process C sets key, value and TTL in one command and crashes right after: the key
 *       has a TTL from its first instant, expires, and another process is elected.</li>
 *   <li><b>Heartbeats.</b> Leader C renews its lease every third of the TTL with a script that extends the key only
 *       while it still holds C's random token, and keeps leading for several TTLs. When C stalls, its lease expires
 *       and D is elected; C's late heartbeat (and its release) then change nothing, because the token is D's.
 *       The naive heartbeat from the seed, a plain {@code PEXPIRE}, would have extended D's lease instead: C would
 *       keep a key alive that it does not own.</li>
 * </ol>
 * Each command is sent on its own round trip, as one {@code EVAL} that contains exactly that command, so the
 * crash between SETNX and EXPIRE is as real as it gets within one JVM. All keys live under a random
 * {@code lesson:<id>:} prefix and are deleted at the end, so the lesson is safe on a shared server.
 *
 * <p>Run: {@code mvn -q -B exec:java -pl redlock-examples -Dexec.mainClass=dev.redlock.examples.lesson.LeaderHeartbeatLesson
 * [-Dexec.args="--nodes redis://host:port"]} (about 10 s). Tested by {@code LeaderHeartbeatLessonIT}.
 */
public final class LeaderHeartbeatLesson {
    /** The TTL process B meant to set with EXPIRE, and the TTL of the atomic SET (seconds, as in the seed). */
    public static final int TTL_SECONDS = 1;
    /** The lease of leader C in the heartbeat part; heartbeats every third of it. */
    public static final long LEASE_MS = 1000;
    /** The lease of the next leader D: long enough that the lesson's checks on D's key cannot race its expiry. */
    public static final long NEXT_LEASE_MS = 10_000;

    private static final String ONE_COMMAND = "return redis.call(ARGV[1], KEYS[1], unpack(ARGV, 2))";
    /** Extends the key only while it holds the caller's token: 1 extended, 0 not ours (any more). */
    static final String TOKEN_CHECKED_EXTEND = """
            if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
            return 0
            """;
    /** Deletes the key only while it holds the caller's token. */
    static final String TOKEN_CHECKED_RELEASE = """
            if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
            return 0
            """;

    private final RScript script;
    private final String prefix;

    private LeaderHeartbeatLesson(RedissonClient client) {
        this.script = client.getScript(StringCodec.INSTANCE);
        this.prefix = "lesson:" + UUID.randomUUID().toString().substring(0, 8) + ":";
    }

    /** Part 1: SETNX then a crash before EXPIRE. */
    public record SetnxThenExpire(long setnxReply, long ttlAfterCrash, long otherSetnxAfterWait, long ttlAfterWait,
                                  long waitedMs) {
        /** The lock is stuck: no TTL, and nobody else can take it even after the intended TTL passed. */
        public boolean stuckForever() {
            return setnxReply == 1 && ttlAfterCrash == -1 && otherSetnxAfterWait == 0 && ttlAfterWait == -1;
        }
    }

    /** Part 2: atomic SET NX EX then a crash. */
    public record AtomicSet(String setReply, long ttlRightAfter, long existsAfterWait, String otherSetAfterWait,
                            long waitedMs) {
        /** The key had a TTL at once, expired on its own, and someone else could take it. */
        public boolean selfHealing() {
            return "OK".equals(setReply) && ttlRightAfter != -1 && existsAfterWait == 0 && "OK".equals(otherSetAfterWait);
        }
    }

    /** Part 3: heartbeats with a token-checked extension, and what a stale heartbeat does. */
    public record Heartbeats(int beats, long ledForMs, boolean stillLeaderAfterBeats, long existsAfterStall,
                             String newLeaderSetReply, long staleBeatReply, long newLeaderPttlBefore,
                             long newLeaderPttlAfterStaleBeat, long staleReleaseReply, boolean newLeaderKept,
                             long naiveBeatReply, long newLeaderPttlAfterNaiveBeat) {
        /** Heartbeats kept the lease for more than 3 TTLs, and the old leader's late calls changed nothing. */
        public boolean tokenCheckedIsSafe() {
            return stillLeaderAfterBeats && ledForMs > 3 * LEASE_MS && existsAfterStall == 0 && "OK".equals(newLeaderSetReply)
                    && staleBeatReply == 0 && newLeaderPttlAfterStaleBeat <= newLeaderPttlBefore && staleReleaseReply == 0
                    && newLeaderKept;
        }

        /** The plain PEXPIRE heartbeat extended a lease the old leader no longer owned. */
        public boolean naiveExtendedSomeoneElses() {
            return naiveBeatReply == 1 && newLeaderPttlAfterNaiveBeat > NEXT_LEASE_MS;
        }
    }

    public record Observations(SetnxThenExpire setnx, AtomicSet atomic, Heartbeats heartbeats) {}

    /** Runs the three parts against {@code client}'s server, printing a transcript, and deletes its keys. */
    public static Observations run(RedissonClient client) throws InterruptedException {
        LeaderHeartbeatLesson l = new LeaderHeartbeatLesson(client);
        List<String> keys = List.of(l.key("leader_v2"), l.key("leader_v3"), l.key("leader"));
        try {
            return new Observations(l.setnxThenExpire(), l.atomicSet(), l.heartbeats());
        } finally {
            for (String k : keys) l.script.eval(RScript.Mode.READ_WRITE, ONE_COMMAND, RScript.ReturnType.VALUE,
                    List.of(k), "DEL");
        }
    }

    private SetnxThenExpire setnxThenExpire() throws InterruptedException {
        String key = key("leader_v2");
        System.out.println("\n== 1. SETNX, then EXPIRE: two commands, and a crash in between");
        long setnx = asLong(cmd("B", "SETNX", key, "process_B"));
        try {
            crash("B", "after SETNX, before EXPIRE " + key + " " + TTL_SECONDS);
            cmd("B", "EXPIRE", key, Integer.toString(TTL_SECONDS));   // never reached
        } catch (SimulatedCrash e) {
            System.out.println("   process B crashed: " + e.getMessage());
        }
        long ttl = asLong(cmd("ops", "TTL", key));
        System.out.println("   TTL -1 means: the key exists and never expires");
        long waited = TTL_SECONDS * 1000L + 500;
        Thread.sleep(waited);
        System.out.println("   ... " + waited + " ms later, well past the " + TTL_SECONDS + " s B meant to set:");
        long other = asLong(cmd("D", "SETNX", key, "process_D"));
        long ttlAfter = asLong(cmd("ops", "TTL", key));
        System.out.println("   D cannot become leader, now or ever: the election is stuck until someone runs DEL " + key);
        return new SetnxThenExpire(setnx, ttl, other, ttlAfter, waited);
    }

    private AtomicSet atomicSet() throws InterruptedException {
        String key = key("leader_v3");
        System.out.println("\n== 2. SET key value NX EX seconds: one command");
        String set = asString(cmd("C", "SET", key, "process_C", "NX", "EX", Integer.toString(TTL_SECONDS)));
        try {
            crash("C", "right after SET NX EX");
        } catch (SimulatedCrash e) {
            System.out.println("   process C crashed: " + e.getMessage());
        }
        long ttl = asLong(cmd("ops", "TTL", key));
        System.out.println("   the key had its TTL from the first instant: there is no moment to crash in");
        long waited = TTL_SECONDS * 1000L + 500;
        Thread.sleep(waited);
        System.out.println("   ... " + waited + " ms later:");
        long exists = asLong(cmd("ops", "EXISTS", key));
        String other = asString(cmd("D", "SET", key, "process_D", "NX", "EX", Integer.toString(TTL_SECONDS)));
        System.out.println("   C's lease expired on its own and D was elected");
        return new AtomicSet(set, ttl, exists, other, waited);
    }

    private Heartbeats heartbeats() throws InterruptedException {
        String key = key("leader");
        String tokenC = UUID.randomUUID().toString();
        String tokenD = UUID.randomUUID().toString();
        String lease = Long.toString(LEASE_MS);
        System.out.println("\n== 3. Heartbeats: extend only while the key still holds my token");
        // the heartbeat script once on a key nobody holds, so its first real beat does not pay the script's load
        script.eval(RScript.Mode.READ_WRITE, TOKEN_CHECKED_EXTEND, RScript.ReturnType.VALUE, List.of(key("warm-up")),
                tokenC, lease);
        cmd("C", "SET", key, tokenC, "NX", "PX", lease);
        long elected = System.nanoTime();
        AtomicInteger beats = new AtomicInteger();
        AtomicBoolean leader = new AtomicBoolean(true);
        ScheduledExecutorService heart = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "heartbeat-C");
            t.setDaemon(true);
            return t;
        });
        try {
            heart.scheduleAtFixedRate(() -> {
                try {
                    long r = asLong(script.eval(RScript.Mode.READ_WRITE, TOKEN_CHECKED_EXTEND, RScript.ReturnType.VALUE,
                            List.of(key), tokenC, lease));
                    if (r == 1) beats.incrementAndGet();
                    else leader.set(false);   // not ours any more: step down
                } catch (RuntimeException e) {
                    leader.set(false);        // cannot tell: a leader that cannot renew steps down
                }
            }, LEASE_MS / 3, LEASE_MS / 3, TimeUnit.MILLISECONDS);
            Thread.sleep(LEASE_MS * 4);
        } finally {
            heart.shutdownNow();
            heart.awaitTermination(5, TimeUnit.SECONDS);
        }
        long ledFor = (System.nanoTime() - elected) / 1_000_000;
        boolean still = leader.get() && tokenC.equals(asString(cmd("ops", "GET", key)));
        System.out.println("   C sent " + beats.get() + " heartbeats and led for " + ledFor + " ms, "
                + (ledFor / LEASE_MS) + "x its " + LEASE_MS + " ms lease");

        System.out.println("   C stalls (GC pause): no heartbeats");
        Thread.sleep(LEASE_MS + 300);
        long exists = asLong(cmd("ops", "EXISTS", key));
        String dSet = asString(cmd("D", "SET", key, tokenD, "NX", "PX", Long.toString(NEXT_LEASE_MS)));
        long pttlBefore = asLong(cmd("ops", "PTTL", key));
        long stale = asLong(eval("C (late)", TOKEN_CHECKED_EXTEND, key, tokenC, lease));
        long pttlAfterStale = asLong(cmd("ops", "PTTL", key));
        long staleRelease = asLong(eval("C (late)", TOKEN_CHECKED_RELEASE, key, tokenC));
        boolean dKept = tokenD.equals(asString(cmd("ops", "GET", key)));
        System.out.println("   C's late heartbeat and release were refused: the key holds D's token");

        System.out.println("   the seed's naive heartbeat (PEXPIRE without a token check), sent late by C:");
        long naive = asLong(cmd("C (late)", "PEXPIRE", key, "60000"));
        long pttlAfterNaive = asLong(cmd("ops", "PTTL", key));
        System.out.println("   C just stretched D's lease from " + NEXT_LEASE_MS / 1000 + " s to a minute: if D dies now, nobody leads for a minute");
        return new Heartbeats(beats.get(), ledFor, still, exists, dSet, stale, pttlBefore, pttlAfterStale,
                staleRelease, dKept, naive, pttlAfterNaive);
    }

    private Object cmd(String who, String command, String key, String... args) {
        Object[] argv = new Object[args.length + 1];
        argv[0] = command;
        System.arraycopy(args, 0, argv, 1, args.length);
        Object r = script.eval(RScript.Mode.READ_WRITE, ONE_COMMAND, RScript.ReturnType.VALUE, List.of(key), argv);
        System.out.printf("   %-9s> %s %s%s  -> %s%n", who, command, key, args.length == 0 ? "" : " " + String.join(" ", args),
                show(r));
        return r;
    }

    private Object eval(String who, String lua, String key, String... args) {
        Object r = script.eval(RScript.Mode.READ_WRITE, lua, RScript.ReturnType.VALUE, List.of(key), (Object[]) args);
        String name = lua.equals(TOKEN_CHECKED_EXTEND) ? "token-checked PEXPIRE" : "token-checked DEL";
        System.out.printf("   %-9s> %s %s  -> %s%n", who, name, key, show(r));
        return r;
    }

    private String key(String name) {
        return prefix + name;
    }

    private static void crash(String who, String where) {
        throw new SimulatedCrash("process " + who + " died " + where);
    }

    private static String show(Object r) {
        return r == null ? "(nil)" : r.toString();
    }

    private static long asLong(Object r) {
        if (r == null) return 0;
        return Long.parseLong(r.toString());
    }

    private static String asString(Object r) {
        return r == null ? null : r.toString();
    }

    /** Stands for a process that dies between two statements. */
    static final class SimulatedCrash extends RuntimeException {
        private static final long serialVersionUID = 1L;

        SimulatedCrash(String message) {
            super(message);
        }
    }

    public static void main(String[] args) throws Exception {
        try (ExampleNodes nodes = ExampleNodes.fromArgs(args, 1)) {
            if (nodes.uris().size() != 1) {
                throw new IllegalArgumentException("the lesson runs on exactly one node, got --nodes " + nodes.uris());
            }
            RedissonClient client = ExampleNodes.redisson(nodes.uris().get(0));
            try {
                Observations o = run(client);
                System.out.println();
                System.out.println("SETNX + EXPIRE with a crash in between leaves the lock stuck forever: " + o.setnx().stuckForever());
                System.out.println("atomic SET NX EX always has a TTL and heals itself:               " + o.atomic().selfHealing());
                System.out.println("token-checked heartbeats keep the lease and ignore a stale leader: " + o.heartbeats().tokenCheckedIsSafe());
                System.out.println("a naive PEXPIRE heartbeat extends someone else's lease:            " + o.heartbeats().naiveExtendedSomeoneElses());
            } finally {
                client.shutdown(0, 2, TimeUnit.SECONDS);
            }
        }
    }
}
