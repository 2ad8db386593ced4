package dev.redlock.doctor;

import dev.redlock.RedlockConfig;
import dev.redlock.internal.Diagnostics;
import dev.redlock.internal.RedisUri;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What {@link Doctor#examine} found: one {@link NodeReport} per node, the {@link Recommendation}, and a verdict
 * ({@link #exitCode()}). {@link #toText()} is the report for people, {@link #toJson()} for machines,
 * {@link #toProperties()} a {@code redlock.*} file with the recommended settings. Immutable.
 *
 * <p>Neither {@link #toString()}, {@link #toText()} nor {@link #toJson()} shows a password;
 * {@link #toProperties()} is a config file and lists the nodes as given, credentials included.
 */
public final class DoctorReport {
    /** Every node reachable, nothing fails. */
    public static final int OK = 0;
    /** A node fails a check: {@code Preflight.STRICT} would refuse it, or a command the library needs is denied. */
    public static final int FAILED_CHECK = 1;
    /** Bad arguments, a malformed node URI among them (the CLI's code; a report never has it). */
    public static final int BAD_ARGUMENTS = 2;
    /** A node could not be reached. */
    public static final int UNREACHABLE = 3;
    /** A node refused the credentials (or a command of the connection handshake). */
    public static final int AUTH_FAILED = 4;

    private final List<NodeReport> nodes;
    private final Recommendation recommendation;
    private final List<String> rawNodes;
    private final String keyPrefix;
    private final Duration duration;
    private final Duration interval;
    private final Duration maxTtl;
    private final Instant startedAt;

    DoctorReport(List<NodeReport> nodes, Recommendation recommendation, List<String> rawNodes, String keyPrefix,
                 Duration duration, Duration interval, Duration maxTtl, Instant startedAt) {
        this.nodes = List.copyOf(nodes);
        this.recommendation = recommendation;
        this.rawNodes = List.copyOf(rawNodes);
        this.keyPrefix = keyPrefix;
        this.duration = duration;
        this.interval = interval;
        this.maxTtl = maxTtl;
        this.startedAt = startedAt;
    }

    /** From the sessions' raw facts and samples: measurements, recommendation, then the checks under it. */
    static DoctorReport assemble(List<NodeSession> sessions, List<String> rawNodes, String keyPrefix, Duration duration,
                                 Duration interval, Duration maxTtl, Instant startedAt) {
        List<NodeReport> reports = new ArrayList<>();
        List<List<Sample>> samples = new ArrayList<>();   // one copy per session: every measure reads it
        List<ClockMeasure> clocks = new ArrayList<>();
        for (NodeSession s : sessions) {
            samples.add(s.reach == NodeReport.Reach.REACHABLE ? s.samples() : List.of());
            clocks.add(s.reach == NodeReport.Reach.REACHABLE ? Measurements.clock(samples.get(samples.size() - 1)) : null);
        }
        clocks = Measurements.withNodeOffsets(clocks);
        String listId = RedisUri.listId(rawNodes.stream().map(u -> RedisUri.parse(u, "nodes")).toList());
        for (int i = 0; i < sessions.size(); i++) {
            NodeSession s = sessions.get(i);
            if (s.reach != NodeReport.Reach.REACHABLE) {
                reports.add(new NodeReport(s.node, s.uri, s.reach, s.error, null, null, null, null, null, null, null,
                        List.of(), null, null, null, List.of()));
                continue;
            }
            RoundTrips rt = Measurements.roundTrips(samples.get(i), s.timeouts.get(), s.errors.get(), s.lastError);
            Diagnostics.Server server = Diagnostics.server(s.info);
            List<Finding> own = new ArrayList<>(NodeDescriptions.ownFindings(s.node, s.user, keyPrefix, s.commands, rt));
            own.addAll(NodeDescriptions.membership(s.node, s.marker, listId, rawNodes.size()));
            reports.add(new NodeReport(s.node, s.uri, s.reach, null, s.info.get("redis_version"),
                    server == null ? null : new NodeReport.Server(server.description(), server.tested()),
                    s.info.get("run_id"),
                    s.user, NodeDescriptions.role(s.info), NodeDescriptions.persistence(s.info, s.config, s.configError),
                    NodeDescriptions.memory(s.info, s.config), s.commands, s.marker, rt, clocks.get(i), own));
        }
        Recommendation first = Recommender.recommend(reports, maxTtl);
        if (first != null) {
            RedlockConfig recommended = RedlockConfig.builder().nodes(rawNodes).keyPrefix(keyPrefix)
                    .quorum(first.quorum()).driftFactor(first.driftFactor()).fixedDrift(first.fixedDrift())
                    .nodeTimeout(first.nodeTimeout()).restartQuarantine(first.restartQuarantine()).build();
            List<Diagnostics.Facts> facts = new ArrayList<>();
            for (int i = 0; i < sessions.size(); i++) {
                NodeSession s = sessions.get(i);
                if (s.reach != NodeReport.Reach.REACHABLE) continue;
                facts.add(new Diagnostics.Facts(s.node, s.info, s.config, s.configError,
                        Measurements.clockReadings(samples.get(i), 3)));
            }
            Map<String, List<Finding>> byNode = new HashMap<>();
            for (Diagnostics.Finding f : Diagnostics.preflight(facts, recommended)) {
                byNode.computeIfAbsent(f.node(), k -> new ArrayList<>()).add(new Finding(f.setting(),
                        f.refuse() ? Finding.Severity.FAIL : Finding.Severity.WARN, f.message()));
            }
            List<NodeReport> checked = new ArrayList<>();
            for (NodeReport r : reports) {
                List<Finding> all = new ArrayList<>(byNode.getOrDefault(r.node(), List.of()));
                all.addAll(r.findings());
                checked.add(r.withFindings(all));
            }
            reports = checked;
        }
        return new DoctorReport(reports, Recommender.recommend(reports, maxTtl), rawNodes, keyPrefix, duration,
                interval, maxTtl, startedAt);
    }

    /** One report per node, in the order given. */
    public List<NodeReport> nodes() {
        return nodes;
    }

    /** The recommended settings; empty when no node could be measured. */
    public Optional<Recommendation> recommendation() {
        return Optional.ofNullable(recommendation);
    }

    /** The sampling window. */
    public Duration duration() {
        return duration;
    }

    /** Time between two probes to one node. */
    public Duration interval() {
        return interval;
    }

    /** The longest lease TTL the recommendation allows for. */
    public Duration maxTtl() {
        return maxTtl;
    }

    /** The key prefix examined. */
    public String keyPrefix() {
        return keyPrefix;
    }

    /** When the examination began. */
    public Instant startedAt() {
        return startedAt;
    }

    /**
     * The verdict as a process exit status, the first that applies: {@link #AUTH_FAILED}, {@link #UNREACHABLE},
     * {@link #FAILED_CHECK}, else {@link #OK}.
     */
    public int exitCode() {
        if (nodes.stream().anyMatch(n -> n.reach() == NodeReport.Reach.AUTH_FAILED)) return AUTH_FAILED;
        if (nodes.stream().anyMatch(n -> n.reach() == NodeReport.Reach.UNREACHABLE)) return UNREACHABLE;
        if (nodes.stream().anyMatch(NodeReport::fails)) return FAILED_CHECK;
        return OK;
    }

    /** Why {@link #exitCode()} is not {@link #OK}: one line per unreachable node and per failing finding. */
    public List<String> failures() {
        List<String> out = new ArrayList<>();
        for (NodeReport n : nodes) {
            if (n.reach() != NodeReport.Reach.REACHABLE) {
                out.add(n.node() + " " + (n.reach() == NodeReport.Reach.AUTH_FAILED ? "refused the login" : "unreachable")
                        + ": " + n.error());
            }
            for (Finding f : n.findings()) if (f.fails()) out.add(f.message());
        }
        return out;
    }

    /** The report for people: a table per node, the recommendation with its reasons, the verdict. */
    public String toText() {
        return ReportText.render(this);
    }

    /** The report as JSON (one object: {@code nodes}, {@code recommendation}, {@code verdict}). */
    public String toJson() {
        return ReportJson.render(this);
    }

    /**
     * A {@code .properties} file with the recommended {@code redlock.*} settings (each with its reason as a comment)
     * that {@code RedlockConfig.load} reads, plus {@code chaos.ttl} for the chaos suite's {@code run --config} (a key
     * {@code RedlockConfig} ignores). Lists the nodes as given, credentials included.
     *
     * @throws IllegalStateException when there is no recommendation (no node could be measured)
     */
    public String toProperties() {
        if (recommendation == null) throw new IllegalStateException("no recommendation: no node could be measured");
        return ReportProperties.render(this, rawNodes);
    }

    @Override
    public String toString() {
        return "DoctorReport[" + nodes.size() + " nodes, exit " + exitCode() + ", " + recommendation + "]";
    }
}
