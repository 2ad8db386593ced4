package dev.redlock;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The preflight rules, as pure functions of {@link NodeFacts} (what a node's {@code INFO}, {@code CONFIG GET} and
 * {@code TIME} said), so they can be tested without a server and reused by other tools. What each rule protects:
 * <ul>
 *   <li><b>eviction</b>: with {@code maxmemory} set, every policy but {@code noeviction} may evict a lock key
 *       ({@code volatile-*}: keys with a TTL, which every lock key has; {@code allkeys-*}: anything, the marker
 *       too) while its holder is valid: a second holder, no restart needed;</li>
 *   <li><b>role</b>: Redlock needs independent masters; a replica refuses lock writes ({@code READONLY}) or, with
 *       {@code replica-read-only no}, takes them and drops them at its next resync;</li>
 *   <li><b>clock</b>: after a node loses its memory its fences read its clock; a node whose clock is behind the
 *       clocks that issued tokens by more than {@code restartQuarantine - margin} could repeat a token. Each node
 *       must be within {@link #clockToleranceUs} of this client and of the other nodes (half of that, so any two
 *       clocks that pass are within the whole of it of each other). Not checked with the amnesia guard off;</li>
 *   <li><b>cluster</b>: a node with {@code cluster_enabled:1} refuses the scripts ({@code CROSSSLOT}); Redis Cluster
 *       is not supported;</li>
 *   <li><b>version</b>: Redis before 6.2 is refused (the scripts read {@code TIME} and {@code INFO} before
 *       writing, which older lines restrict); a server the project's matrix did not run ({@link ServerVersion}) is
 *       a warning.</li>
 * </ul>
 * {@code CONFIG GET} is needed only for what {@code INFO} does not say (replica-read-only, on a replica); when it
 * is refused, the value is reported as unknown (a warning), never as a failure.
 */
final class PreflightRules {
    private PreflightRules() {}

    /**
     * How far (us) a node's clock may be from this client's and from the other nodes': (restartQuarantine minus twice
     * the clock margin) / 2, so any two nodes that pass are within {@code restartQuarantine - 2 margin} of each other
     * and a guessed token (at most a node's clock plus the margin) stays below the clock of a node that lost its
     * memory once its quarantine has passed; -1 when the amnesia guard is off (no clock check).
     */
    static long clockToleranceUs(RedlockConfig cfg) {
        long q = cfg.restartQuarantine().toNanos() / 1000;
        if (q == 0) return -1;
        return (q - 2 * AcquireRound.clockMarginMicros(cfg)) / 2;
    }

    /** Every finding for one node (the clock compared with this client's only; see {@link #compareClocks}). */
    static List<PreflightFinding> check(NodeFacts f, long clockToleranceUs) {
        List<PreflightFinding> out = new ArrayList<>();
        version(f, out);
        eviction(f, out);
        role(f, out);
        cluster(f, out);
        NodeFacts.ClockSample c = f.bestClock();
        if (clockToleranceUs >= 0 && c != null && Math.abs(c.offsetUs()) - c.uncertaintyUs() > clockToleranceUs) {
            out.add(new PreflightFinding(f.node(), "clock", true, f.node() + " clock offset " + signed(c.offsetUs())
                    + " from this client's clock (tolerated: " + human(clockToleranceUs) + " = (restartQuarantine - "
                    + "2 x clock margin) / 2): after this node loses its memory a fencing token could repeat; synchronise "
                    + "the clocks (NTP) or use Preflight.WARN"));
        }
        return out;
    }

    /**
     * The clock of each node against the median of all nodes' clocks (offsets measured from this client, so the
     * comparison needs no clock of its own): a node farther than the tolerance is named.
     */
    static List<PreflightFinding> compareClocks(List<NodeFacts> nodes, long clockToleranceUs) {
        List<PreflightFinding> out = new ArrayList<>();
        if (clockToleranceUs < 0) return out;
        List<Long> offsets = new ArrayList<>();
        for (NodeFacts f : nodes) if (f.bestClock() != null) offsets.add(f.bestClock().offsetUs());
        if (offsets.size() < 2) return out;
        List<Long> sorted = offsets.stream().sorted().toList();
        long median = sorted.get(sorted.size() / 2);
        for (NodeFacts f : nodes) {
            NodeFacts.ClockSample c = f.bestClock();
            if (c == null) continue;
            long d = c.offsetUs() - median;
            if (Math.abs(d) - c.uncertaintyUs() > clockToleranceUs) {
                out.add(new PreflightFinding(f.node(), "clock", true, f.node() + " clock is " + signed(d)
                        + " from the other nodes' (median; tolerated: " + human(clockToleranceUs) + "): after a node "
                        + "loses its memory a fencing token could repeat; synchronise the clocks (NTP) or use "
                        + "Preflight.WARN"));
            }
        }
        return out;
    }

    private static void version(NodeFacts f, List<PreflightFinding> out) {
        ServerVersion server = ServerVersion.of(f.info());
        if (server == null) {
            String v = f.info().get("redis_version");
            out.add(new PreflightFinding(f.node(), "redis_version", false, f.node() + " redis_version unknown ("
                    + (v == null ? "not in INFO" : v) + "): tested are " + ServerVersion.testedList()));
            return;
        }
        switch (server.support()) {
            case UNSUPPORTED -> out.add(new PreflightFinding(f.node(), "redis_version", true, f.node() + " "
                    + server.describe() + " is not supported (Redis 6.2 or later, or Valkey); upgrade the node or use "
                    + "Preflight.WARN"));
            case UNTESTED -> out.add(new PreflightFinding(f.node(), "redis_version", false, f.node() + " "
                    + server.describe() + ": " + server.whyUntested()));
            case TESTED -> { }
        }
    }

    private static void eviction(NodeFacts f, List<PreflightFinding> out) {
        String policy = first(f.info().get("maxmemory_policy"), f.config().get("maxmemory-policy"));
        String max = first(f.info().get("maxmemory"), f.config().get("maxmemory"));
        if (policy == null || max == null) {
            out.add(new PreflightFinding(f.node(), "maxmemory-policy", false, f.node() + " maxmemory-policy unknown"
                    + (f.configError() != null ? " (INFO has no maxmemory_policy and CONFIG GET was refused: "
                    + f.configError() + ")" : " (INFO has no maxmemory_policy)") + ": a policy other than noeviction "
                    + "with maxmemory set can evict lock keys"));
            return;
        }
        long bytes;
        try {
            bytes = Long.parseLong(max.trim());
        } catch (NumberFormatException e) {
            bytes = -1;
        }
        if (bytes != 0 && !policy.equals("noeviction")) {
            String human = f.info().getOrDefault("maxmemory_human", max);
            out.add(new PreflightFinding(f.node(), "maxmemory-policy", true, f.node() + " maxmemory-policy=" + policy
                    + " (maxmemory " + human + ") can evict lock keys; set noeviction or use Preflight.WARN"));
        }
    }

    private static void role(NodeFacts f, List<PreflightFinding> out) {
        String role = f.info().get("role");
        if (role == null) {
            out.add(new PreflightFinding(f.node(), "role", false, f.node() + " role unknown (not in INFO): Redlock "
                    + "needs independent masters"));
            return;
        }
        if (role.equals("master")) return;
        String readOnly = f.config().get("replica-read-only");
        String ro = readOnly != null ? "replica-read-only=" + readOnly
                : "replica-read-only unknown" + (f.configError() != null ? ": CONFIG GET refused (" + f.configError() + ")" : "");
        String of = f.info().containsKey("master_host")
                ? " of " + f.info().get("master_host") + ":" + f.info().getOrDefault("master_port", "?") : "";
        out.add(new PreflightFinding(f.node(), "role", true, f.node() + " role=" + role + " (replica" + of + ", " + ro
                + "): Redlock needs independent masters; a replica refuses lock writes or drops them at its next "
                + "resync; point the config at masters or use Preflight.WARN"));
        if (readOnly == null && f.configError() != null) {
            out.add(new PreflightFinding(f.node(), "CONFIG", false, f.node() + " CONFIG GET refused ("
                    + f.configError() + "): replica-read-only unknown"));
        }
    }

    private static void cluster(NodeFacts f, List<PreflightFinding> out) {
        if (!"1".equals(f.info().get("cluster_enabled"))) return;
        out.add(new PreflightFinding(f.node(), "cluster_enabled", true, f.node() + " cluster_enabled=1: a "
                + "cluster-enabled node runs a script only when all its keys hash to one slot, which the lock's keys do "
                + "not (CROSSSLOT), and Redis Cluster is not supported; point the config at independent masters "
                + "(cluster-enabled no) or use Preflight.WARN"));
    }

    private static String first(String a, String b) {
        return a != null ? a : b;
    }

    private static String signed(long us) {
        return (us >= 0 ? "+" : "-") + human(Math.abs(us));
    }

    private static String human(long us) {
        if (us >= 1_000_000) return String.format(Locale.ROOT, "%.1fs", us / 1e6);
        if (us >= 1000) return us / 1000 + "ms";
        return us + "us";
    }
}
