package dev.redlock.sim;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.redlock.testkit.RedisBinary;
import dev.redlock.testkit.RedisNode;
import dev.redlock.testkit.Seeds;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The model against real servers: the same seeded command sequences (plain commands and the library's own scripts,
 * with adversarial arguments) run on a real redis-server (6.2.11 and 7.0.15) and on a {@link SimNode} that reports
 * the same version, port and identity, from the same empty start; after every step the replies and the whole key
 * state (types, values, TTL presence, TTLs within a tolerance) must match. Time-derived integers are recognised by
 * a second model node on a skewed clock and compared with a tolerance ({@link ReplyComparison}). A failure prints
 * the seed ({@code -Dredlock.seed=...} replays it), the case, the step and both sides.
 */
class SimNodeDifferentialIT {
    private static final int CASES = 120;
    private static final int STEPS = 30;
    /** How far the probe's clock steps forward between two steps (far less than the generator's TTLs of 30 s+). */
    private static final Duration PROBE_STEP = Duration.ofMillis(3);

    static Stream<Arguments> servers() {
        return Stream.of(
                Arguments.of("6.2", (Supplier<Path>) RedisBinary::embedded),
                Arguments.of("7.0", (Supplier<Path>) Redis70Binary::path));
    }

    /** The build's seed; a seed that shows a difference is a bug of the model to fix, never a seed to swap. */
    private static final long FIXED_SEED = 20_261_204L;

    @ParameterizedTest(name = "redis {0}")
    @MethodSource("servers")
    void theModelAnswersAsTheRealServerDoes(String line, Supplier<Path> binary) {
        Path bin = binary.get();
        assumeTrue(bin != null, "no redis-server " + line + " binary for this platform");
        // a fixed seed in the build (the same sequences every run, so a red build is a change, not a draw);
        // -Dredlock.sim.explore=true draws fresh ones, -Dredlock.seed=... replays one
        long seed = Boolean.getBoolean("redlock.sim.explore") || System.getProperty(Seeds.PROPERTY) != null
                ? Seeds.seed("SimNodeDifferentialIT redis " + line) : FIXED_SEED;
        try (RedisNode real = RedisNode.builder().binary(bin).start(); RespWire wire = new RespWire(real.port())) {
            Map<String, String> server = parseInfo((String) wire.call("INFO", "server"));
            String version = server.get("redis_version");
            assertTrue(version.startsWith(line), "expected " + line + ".x, the binary reports " + version);
            String valkey = "valkey".equals(server.get("server_name")) ? server.get("valkey_version") : null;
            ReplyComparison compare = ReplyComparison.create();
            int steps = 0;
            for (int c = 0; c < CASES; c++) steps += runCase(wire, real, version, valkey, seed + c, c, compare);
            System.out.printf("redis %s: %d cases, %d steps matched; tolerated %d time-derived integers, %d Lua runtime"
                    + " error texts (same script and line), %d clock-dependent outcomes%n", version, CASES, steps, compare.toleratedTimes,
                    compare.toleratedLuaMessages, compare.toleratedClockOutcomes);
        }
    }

    private int runCase(RespWire wire, RedisNode real, String version, String valkey, long seed, int caseNo, ReplyComparison compare) {
        wire.call("FLUSHALL");
        wire.call("SCRIPT", "FLUSH");
        wire.call("CONFIG", "SET", "maxmemory", "0");
        wire.call("CONFIG", "SET", "maxmemory-policy", "noeviction");
        String runId = real.info("server", "run_id");
        String replid = real.info("replication", "master_replid");
        SimScheduler time = new SimScheduler(seed);
        SimNode model = model(time, "model", version, valkey, real.port());
        SimNode probe = model(time, "probe", version, valkey, real.port());
        model.identity(runId, replid);
        probe.identity(runId, replid);
        long realUs = timeUs(wire);
        model.clockOffset(Duration.ofNanos((realUs - model.clockMicros()) * 1000));
        long probeOffsetNs = (realUs - probe.clockMicros()) * 1000 + Duration.ofHours(1).toNanos();
        probe.clockOffset(Duration.ofNanos(probeOffsetNs));
        probe.clockRate(3.0);
        Session modelSession = new Session();
        Session probeSession = new Session();
        List<String[]> sequence = new CommandGenerator(seed, runId).sequence(STEPS);
        long last = System.nanoTime();
        List<String> history = new ArrayList<>();
        for (int i = 0; i < sequence.size(); i++) {
            String[] cmd = sequence.get(i);
            long now = System.nanoTime();
            // the model's clock moves as the real server's does (a floor of 1 ms per step put the model a millisecond
            // ahead whenever two real steps fell in one millisecond, and a script comparing two readings diverged)
            time.runFor(Duration.ofNanos(Math.max(0, now - last)));
            last = now;
            // and the probe's clock also steps PROBE_STEP forward between two steps: a rate alone lets an age of 0 or
            // 1 ms (two readings a fraction of a millisecond apart) come out equal on both clocks, and the value was
            // then taken for a time-independent one; with the step, any difference of two readings taken at
            // different steps is at least 2 ms larger on the probe than on the model
            probeOffsetNs += PROBE_STEP.toNanos();
            probe.clockOffset(Duration.ofNanos(probeOffsetNs));
            if (cmd[0].equals(CommandGenerator.SLEEP)) {
                dev.redlock.testkit.Sleep.millis(Long.parseLong(cmd[1]));
                continue;
            }
            history.add(Describe.command(Replies.args(cmd)));
            Object r = wire.call(cmd);
            Object m = model.execute(modelSession, Replies.args(cmd));
            Object p = probe.execute(probeSession, Replies.args(cmd));
            String why = cmd[0].equals("INFO") ? infoMismatch((String) r, m) : compare.mismatch(r, toJava(m), toJava(p));
            if (why != null) fail(report(seed, caseNo, history, "reply: " + why, r, m));
            boolean expiring = i + 1 < sequence.size() && sequence.get(i + 1)[0].equals(CommandGenerator.SLEEP);
            String state = expiring ? null : stateMismatch(wire, model, probe, compare);  // a 1 ms TTL runs out in between
            if (state != null) fail(report(seed, caseNo, history, "state: " + state, r, m));
        }
        return sequence.size();
    }

    private static SimNode model(SimScheduler time, String name, String version, String valkey, int port) {
        SimNode.Builder b = SimNode.builder(time, name).version(version).port(port);
        if (valkey != null) b.valkey(valkey);
        return b.build();
    }

    private static long timeUs(RespWire wire) {
        List<?> t = (List<?>) wire.call("TIME");
        return Long.parseLong((String) t.get(0)) * 1_000_000L + Long.parseLong((String) t.get(1));
    }

    /** INFO: the fields the library reads, compared (the rest of the text is the real server's own). */
    private static String infoMismatch(String real, Object model) {
        Map<String, String> r = parseInfo(real);
        Map<String, String> m = parseInfo(LuaBridge.utf8((org.luaj.vm2.LuaString) model));
        for (String f : List.of("redis_version", "server_name", "valkey_version", "run_id", "tcp_port", "role", "connected_slaves", "master_replid",
                "maxmemory", "maxmemory_policy", "cluster_enabled")) {
            if (r.containsKey(f) != m.containsKey(f) || (r.containsKey(f) && !r.get(f).equals(m.get(f)))) {
                return "INFO field " + f + ": real " + r.get(f) + ", model " + m.get(f);
            }
        }
        return null;
    }

    private static Map<String, String> parseInfo(String text) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String l : text.split("\r\n")) {
            int colon = l.indexOf(':');
            if (colon > 0 && !l.startsWith("#")) out.put(l.substring(0, colon), l.substring(colon + 1));
        }
        return out;
    }

    private String stateMismatch(RespWire wire, SimNode model, SimNode probe, ReplyComparison compare) {
        Map<String, Object[]> real = realState(wire);
        Map<String, Object[]> sim = modelState(model);
        Map<String, Object[]> skewed = modelState(probe);
        if (!real.keySet().equals(sim.keySet())) return "keys: real " + real.keySet() + ", model " + sim.keySet();
        for (String k : real.keySet()) {
            Object[] r = real.get(k);
            Object[] m = sim.get(k);
            Object[] p = skewed.getOrDefault(k, m);
            if (!r[0].equals(m[0])) return k + " type: real " + r[0] + ", model " + m[0];
            String v = compare.mismatch(r[1], m[1], p[1]);
            if (v != null) return k + " value " + v + ": real " + r[1] + ", model " + m[1] + ", skewed model " + p[1];
            String ttl = compare.ttl((Long) r[2], (Long) m[2]);
            if (ttl != null) return k + " " + ttl + ": real " + r[2] + ", model " + m[2];
        }
        return null;
    }

    /** key -> {type, value (string, or the hash as a flat field/value list), pttl}. */
    private static Map<String, Object[]> realState(RespWire wire) {
        Map<String, Object[]> out = new LinkedHashMap<>();
        List<?> keys = (List<?>) wire.call("KEYS", "*");
        for (Object k : new TreeSet<>(keys.stream().map(String::valueOf).toList())) {
            String key = (String) k;
            String type = ((StatusReply) wire.call("TYPE", key)).text();
            Object value = type.equals("hash") ? wire.call("HGETALL", key) : wire.call("GET", key);
            out.put(key, new Object[] {type, value, wire.call("PTTL", key)});
        }
        return out;
    }

    private static Map<String, Object[]> modelState(SimNode n) {
        Map<String, Object[]> out = new LinkedHashMap<>();
        for (String key : new TreeSet<>(n.keys())) {
            Object type = ((StatusReply) n.execute(new Session(), Replies.args("TYPE", key))).text();
            Object value = n.command(type.equals("hash") ? "HGETALL" : "GET", key);
            out.put(key, new Object[] {type, value, n.command("PTTL", key)});
        }
        return out;
    }

    /** The model's reply in the comparison's terms: bulk strings as Java strings, status and errors kept. */
    private static Object toJava(Object reply) {
        if (reply instanceof org.luaj.vm2.LuaString s) return LuaBridge.utf8(s);
        if (reply instanceof List<?> l) {
            List<Object> out = new ArrayList<>();
            for (Object o : l) out.add(toJava(o));
            return out;
        }
        return reply;
    }

    private static String report(long seed, int caseNo, List<String> history, String why, Object real, Object model) {
        StringBuilder b = new StringBuilder("the model differs from the real server (seed " + seed + ", case " + caseNo
                + "; replay the run with -D" + Seeds.PROPERTY + "=" + (seed - caseNo) + "): " + why + "\n");
        b.append("real:  ").append(real).append("\nmodel: ").append(Describe.reply(model)).append("\nsteps:\n");
        for (String h : history) b.append("  ").append(h).append('\n');
        return b.toString();
    }
}
