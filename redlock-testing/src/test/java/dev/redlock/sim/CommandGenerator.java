package dev.redlock.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Seeded command sequences for the differential test: plain commands with adversarial arguments, and the library's
 * own scripts (by EVAL and EVALSHA) with realistic and adversarial arguments, over a small key pool so that types
 * collide (WRONGTYPE), markers are missing, present, foreign or a legacy string, fences sit around 2^53, keys
 * expire. TTLs are long (the steps of a case take milliseconds) or invalid, except the explicit expire-now step
 * ({@code PEXPIRE key 1} followed by a {@link #SLEEP} of a few ms). No {@code DBSIZE}: a real server counts a key
 * that expired until its active expiry (sampled, 10 times a second) removes it, the model never counts it.
 */
final class CommandGenerator {
    /** A pseudo-command: wait this many ms (real and virtual) before the next step. */
    static final String SLEEP = "__sleep";

    private static final String[] KEYS = {"lk", "fe", "__node", "h", "s", "n"};
    private static final String[] VALUES = {"", "0", "1", "-5", "01", "x", "1.5", "9223372036854775807", "9007199254740993",
        "1748736000000001", "a", "b"};
    private static final String[] TTLS = {"30000", "60000", "120000", "0", "-1", "x", "9223372036854775807"};
    private static final String[] OWNERS = {"a", "b", ""};
    private static final String[] TOKENS = {"0", "5", "1748736000000001", "9007199254740992", "9007199254740993",
        "99999999999999999999", "-5", "abc", "12345678901234567890"};

    private final SplittableRandom r;
    private final String runId;

    CommandGenerator(long seed, String realRunId) {
        this.r = new SplittableRandom(seed);
        this.runId = realRunId;
    }

    private int pick(int n) {
        return r.nextInt(n);
    }

    private String pick(String... options) {
        return options[r.nextInt(options.length)];
    }

    private String key() {
        return pick(KEYS);
    }

    /** One case: a sequence of commands (some are {@link #SLEEP} steps). */
    List<String[]> sequence(int steps) {
        List<String[]> out = new ArrayList<>();
        while (out.size() < steps) {
            int kind = r.nextInt(100);
            if (kind < 40) out.add(script());
            else if (kind < 52) out.add(setup());
            else if (kind < 55) {
                out.add(new String[] {"PEXPIRE", key(), "1"});
                out.add(new String[] {SLEEP, "3"});
            } else if (kind < 57) {
                out.add(new String[] {"CONFIG", "SET", "maxmemory", pick("1", "0", "0")});
            } else out.add(plain());
        }
        out.add(new String[] {"CONFIG", "SET", "maxmemory", "0"});
        return out;
    }

    private String[] setup() {
        return switch (r.nextInt(7)) {
            case 0 -> new String[] {"HSET", "__node", "run", runId, "born", "0", "hw", "0", "q", "0"};
            case 1 -> new String[] {"HSET", "__node", "run", pick("other", runId), "born", "1748736000000", "hw",
                pick("5", "9007199254740993", "x"), "q", pick("0", "100000")};
            case 2 -> new String[] {"SET", "__node", "legacy"};
            case 3 -> new String[] {"DEL", "__node"};
            case 4 -> new String[] {"SET", "fe", pick("9007199254740993", "1748736000000001", "x", "99999999999999999999"), "PX", "600000"};
            case 5 -> new String[] {"SET", "lk", pick(OWNERS), "PX", "30000"};
            default -> new String[] {"HSET", "fk", "value", "v", "fence", pick("5", "05", "1748736000000001", "x", "12345678901234567890123")};
        };
    }

    private String[] script() {
        String name = pick("ACQUIRE", "ACQUIRE", "ACQUIRE", "WRITE_FENCE", "EXTEND", "RELEASE", "MARK_FRESH", "FENCED_WRITE");
        List<String> keys = new ArrayList<>();
        List<String> args = new ArrayList<>();
        switch (name) {
            case "ACQUIRE" -> {
                keys.addAll(List.of(pick("lk", "lk", "h"), pick("fe", "fe", "h", "s"), pick("__node", "__node", "__node", "s")));
                args.addAll(List.of(pick(OWNERS), pick("30000", "30000", "60000", "0", "x"), pick("0", "0", "1000", "x"),
                    pick(TOKENS), pick("100000", "100000", "0", "x"), pick("600000", "600000", "0"),
                    pick("", "m:a", "m:a", "m:b", "m:a+b", "m:c+d"), pick("120000", "120000", "0")));
            }
            case "WRITE_FENCE" -> {
                keys.addAll(List.of("lk", pick("fe", "h"), pick("__node", "s")));
                args.addAll(List.of(pick(OWNERS), pick(TOKENS), "600000"));
            }
            case "EXTEND" -> {
                keys.addAll(List.of(pick("lk", "h"), pick("__node", "__node", "s")));
                args.addAll(List.of(pick(OWNERS), pick("30000", "60000", "0"), pick("", "m:a", "m:b"), pick("120000", "0")));
            }
            case "RELEASE" -> {
                keys.add(pick("lk", "lk", "h"));
                args.addAll(List.of(pick(OWNERS), "wake", pick("1", "0")));
            }
            case "MARK_FRESH" -> keys.add(pick("__node", "__node", "s"));
            default -> {
                keys.add(pick("fk", "fk", "s"));
                args.addAll(List.of(pick("v1", "v2"), pick("5", "6", "05", "1748736000000001", "12345678901234567890", "x"),
                    pick("lax", "strict")));
            }
        }
        if (r.nextInt(10) == 0 && !args.isEmpty()) args.remove(args.size() - 1);
        List<String> cmd = new ArrayList<>();
        boolean bySha = r.nextBoolean();
        String source = LibraryScripts.source(name);
        cmd.add(bySha ? "EVALSHA" : "EVAL");
        cmd.add(bySha ? dev.redlock.internal.Scripts.sha1(source) : source);
        cmd.add(Integer.toString(keys.size()));
        cmd.addAll(keys);
        cmd.addAll(args);
        return cmd.toArray(String[]::new);
    }

    private String[] plain() {
        String k = key();
        return switch (r.nextInt(28)) {
            case 0 -> new String[] {"SET", k, pick(VALUES)};
            case 1 -> new String[] {"SET", k, pick(VALUES), pick("NX", "XX"), "PX", pick(TTLS)};
            case 2 -> new String[] {"SET", k, pick(VALUES), pick("EX", "PX"), pick(TTLS), pick("KEEPTTL", "GET", "NX", "XX")};
            case 3 -> new String[] {"SET", k, pick(VALUES), pick("KEEPTTL", "GET", "NX")};
            case 4 -> new String[] {"GET", k};
            case 5 -> new String[] {pick("DEL", "UNLINK"), k, key()};
            case 6 -> new String[] {"EXISTS", k, key(), k};
            case 7 -> new String[] {pick("PEXPIRE", "EXPIRE"), k, pick("30000", "-5", "0", "x", "9223372036854775807", "60000")};
            case 8 -> new String[] {pick("PTTL", "TTL"), k};
            case 9 -> new String[] {"INCR", k};
            case 10 -> new String[] {"HSET", k, pick("run", "hw", "f"), pick(VALUES)};
            case 11 -> new String[] {"HSET", k, "a", "1", pick("b", "a")};
            case 12 -> new String[] {"HGET", k, pick("run", "hw", "f", "born")};
            case 13 -> new String[] {"HMGET", k, "run", "born", "hw", "q"};
            case 14 -> new String[] {"HGETALL", k};
            case 15 -> new String[] {"HDEL", k, pick("run", "f"), "hw"};
            case 16 -> new String[] {"HEXISTS", k, pick("run", "f")};
            case 17 -> new String[] {"HINCRBY", k, pick("hw", "f", "run"), pick("1", "-3", "x", "9223372036854775807")};
            case 18 -> new String[] {"TYPE", k};
            case 19 -> new String[] {"PUBSUB", "NUMSUB", "wake", "other"};
            case 20 -> new String[] {"PUBLISH", "wake", "1"};
            case 21 -> new String[] {"SCRIPT", pick("LOAD", "EXISTS"), pick("return 1", dev.redlock.internal.Scripts.sha1("return 1"))};
            case 22 -> new String[] {pick("PING", "ECHO", "GET", "HGET", "FOO")};
            case 23 -> new String[] {"INFO", pick("server", "replication", "memory", "cluster")};
            case 24 -> new String[] {"CONFIG", "GET", pick("maxmemory-policy", "maxmemory", "appendonly", "nosuch")};
            case 25 -> pick(2) == 0 ? new String[] {pick("SCRIPT", "PUBSUB", "CONFIG"), pick("NOPE", "Nope")}
                    : new String[] {pick("SCRIPT", "CONFIG"), pick("LOAD", "EXISTS", "GET", "get")};
            // redis.call only: a 6.2 node words a pcall of these with the line number, which the model cannot know
            case 26 -> new String[] {"EVAL", pick("return redis.call()", "return redis.call('GET', nil)",
                "return redis.call('GET', {})", "return redis.call('NOPE')", "return redis.call('SET', 'a')"), "0"};
            default -> new String[] {"ECHO", pick(VALUES)};
        };
    }
}
