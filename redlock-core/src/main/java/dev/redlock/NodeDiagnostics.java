package dev.redlock;

import dev.redlock.internal.Diagnostics;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The library's side of {@link Diagnostics}: its preflight rules over node facts, and the commands it sends, the
 * scripts' read from their source (so the list cannot fall behind a script). Stateless.
 */
final class NodeDiagnostics implements Diagnostics.Provider {
    /** {@code redis.call('CMD'} or {@code redis.pcall('CMD', 'SUB'}. */
    private static final Pattern SCRIPT_CALL = Pattern.compile("redis\\.p?call\\('([A-Za-z]+)'(?:\\s*,\\s*'([A-Za-z]+)')?");
    /** Commands whose first argument is a subcommand with its own ACL permission. */
    private static final Set<String> CONTAINERS = Set.of("PUBSUB", "SCRIPT", "CONFIG", "CLIENT", "OBJECT", "MEMORY");

    /** What the transport and the client send, beside the scripts. */
    private static final List<Diagnostics.CommandUse> CLIENT = List.of(
            new Diagnostics.CommandUse("INFO", "the connection handshake (INFO server: run_id, version) and the "
                    + "preflight check", true),
            new Diagnostics.CommandUse("EVALSHA", "every lock call (acquire, fence, extend, release, mark fresh)", true),
            new Diagnostics.CommandUse("SCRIPT LOAD", "loading the scripts at every connect (denied: each script's "
                    + "first call answers NOSCRIPT and is sent again with EVAL)", false),
            new Diagnostics.CommandUse("EVAL", "a script sent by source when the node answers NOSCRIPT (denied: lock "
                    + "calls fail on a node whose script cache was flushed, until the client reconnects)", false),
            new Diagnostics.CommandUse("TIME", "the preflight clock check", true),
            new Diagnostics.CommandUse("CONFIG GET", "the preflight check, for what INFO does not say "
                    + "(replica-read-only; eviction settings where INFO lacks them); denied: reported as unknown", false),
            new Diagnostics.CommandUse("EXISTS", "waiting acquirers, before a wake-up round", false),
            new Diagnostics.CommandUse("SUBSCRIBE", "release wake-ups for waiting acquirers (denied: waiters retry "
                    + "on their timer only)", false),
            new Diagnostics.CommandUse("UNSUBSCRIBE", "release wake-ups, when the last waiter leaves", false));

    @Override
    public List<Diagnostics.Finding> preflight(List<Diagnostics.Facts> nodes, RedlockConfig config) {
        long tolerance = PreflightRules.clockToleranceUs(config);
        List<NodeFacts> facts = new ArrayList<>();
        for (Diagnostics.Facts f : nodes) {
            List<NodeFacts.ClockSample> clock = new ArrayList<>();
            for (Diagnostics.ClockReading r : f.clock()) {
                clock.add(new NodeFacts.ClockSample(r.clientBeforeUs(), r.nodeUs(), r.clientAfterUs()));
            }
            facts.add(new NodeFacts(f.node(), f.info(), f.config(), f.configError(), clock));
        }
        List<PreflightFinding> found = new ArrayList<>();
        for (NodeFacts f : facts) found.addAll(PreflightRules.check(f, tolerance));
        found.addAll(PreflightRules.compareClocks(facts, tolerance));
        return found.stream().map(p -> new Diagnostics.Finding(p.node(), p.setting(), p.refuse(), p.message())).toList();
    }

    @Override
    public List<Diagnostics.CommandUse> commands() {
        Map<String, Diagnostics.CommandUse> out = new LinkedHashMap<>();
        for (Diagnostics.CommandUse c : CLIENT) out.put(c.command(), c);
        Map<String, List<String>> byScript = new LinkedHashMap<>();
        for (LuaScript s : LuaScript.values()) {
            Matcher m = SCRIPT_CALL.matcher(s.source());
            while (m.find()) {
                String cmd = m.group(1).toUpperCase(Locale.ROOT);
                if (CONTAINERS.contains(cmd) && m.group(2) != null) cmd += " " + m.group(2).toUpperCase(Locale.ROOT);
                List<String> users = byScript.computeIfAbsent(cmd, k -> new ArrayList<>());
                if (!users.contains(s.name())) users.add(s.name());
            }
        }
        for (Map.Entry<String, List<String>> e : byScript.entrySet()) {
            String usedBy = "the scripts " + String.join(", ", e.getValue()) + " (a denied command fails the script)";
            Diagnostics.CommandUse client = out.get(e.getKey());
            out.put(e.getKey(), new Diagnostics.CommandUse(e.getKey(),
                    client == null ? usedBy : client.usedBy() + "; " + usedBy, true));
        }
        return List.copyOf(out.values());
    }

    @Override
    public Map<String, String> parseInfo(String infoText) {
        return PreflightCheck.parseInfo(infoText);
    }

    @Override
    public long clockToleranceUs(RedlockConfig config) {
        return PreflightRules.clockToleranceUs(config);
    }

    @Override
    public Diagnostics.Server server(Map<String, String> info) {
        ServerVersion v = ServerVersion.of(info);
        return v == null ? null : new Diagnostics.Server(v.describe(), v.support() == ServerVersion.Support.TESTED);
    }
}
