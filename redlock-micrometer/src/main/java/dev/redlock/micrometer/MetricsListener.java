package dev.redlock.micrometer;

import dev.redlock.NodeOutcome;
import dev.redlock.RedlockListener;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The listener behind {@link RedlockMetrics}, for one registry: meters are created on first use and cached in arrays
 * indexed by the events' enums (and the node's index), so an event costs an array read and the meter's own record.
 */
final class MetricsListener implements RedlockListener {
    private static final Logger log = LoggerFactory.getLogger(MetricsListener.class);

    static final Set<String> OWN_TAG_KEYS = Set.of("outcome", "mode", "node", "operation", "result", "trigger",
            "reason", "election", "resource");
    static final String OTHER = "other";

    private static final AcquireOutcome[] OUTCOMES = AcquireOutcome.values();
    private static final AcquireMode[] MODES = AcquireMode.values();
    private static final Operation[] OPERATIONS = Operation.values();
    private static final NodeOutcome.Kind[] RESULTS = NodeOutcome.Kind.values();
    private static final ExtendTrigger[] TRIGGERS = ExtendTrigger.values();
    private static final LossReason[] REASONS = LossReason.values();

    private final MeterRegistry registry;
    private final Tags common;
    private final Function<String, String> resourceTag;
    private final ResourceMeters untagged;
    private final Map<String, ResourceMeters> byResource = new ConcurrentHashMap<>();
    private volatile boolean resourceOverflowLogged;
    private final DistributionSummary rounds;
    private final Timer[] nodeRequests;                         // [node][operation][result], flattened
    private final AtomicLong active = new AtomicLong();
    private final Map<String, ElectionMeters> elections = new ConcurrentHashMap<>();
    private final boolean observed;       // the acquire and extend timers come from RedlockObservations

    MetricsListener(MeterRegistry registry, Tags common, Function<String, String> resourceTag, int nodes, boolean observed) {
        this.registry = registry;
        this.observed = observed;
        this.common = common;
        this.resourceTag = resourceTag;
        this.untagged = new ResourceMeters(common);
        this.rounds = DistributionSummary.builder("redlock.acquire.rounds").tags(common).baseUnit("rounds")
                .description("Quorum rounds per acquisition").register(registry);
        this.nodeRequests = new Timer[nodes * OPERATIONS.length * RESULTS.length];
        Gauge.builder("redlock.lease.active", active, AtomicLong::get).tags(common).strongReference(true)
                .description("Leases held by this Redlock").register(registry);
        if (resourceTag == null) {
            for (LossReason r : REASONS) untagged.lost(r);      // a loss counter reads 0 before the first loss
        }
    }

    /** The meters of one value of the resource tag (or of all resources when there is no resource tag). */
    private final class ResourceMeters {
        final Tags tags;
        final Timer[] acquire = new Timer[OUTCOMES.length * MODES.length];
        final Timer[] extend = new Timer[2 * TRIGGERS.length];
        final Counter[] lost = new Counter[REASONS.length];
        volatile Timer validityAtAcquire;
        volatile Timer validityAtExtend;
        volatile Timer lateness;

        ResourceMeters(Tags tags) {
            this.tags = tags;
        }

        Timer acquire(AcquireOutcome outcome, AcquireMode mode) {
            int i = outcome.ordinal() * MODES.length + mode.ordinal();
            Timer t = acquire[i];
            if (t == null) {
                acquire[i] = t = Timer.builder("redlock.acquire").tags(tags)
                        .tag("outcome", lower(outcome)).tag("mode", lower(mode))
                        .description("Acquisitions, from the call to the outcome").register(registry);
            }
            return t;
        }

        Timer extend(boolean extended, ExtendTrigger trigger) {
            int i = (extended ? 0 : TRIGGERS.length) + trigger.ordinal();
            Timer t = extend[i];
            if (t == null) {
                extend[i] = t = Timer.builder("redlock.extend").tags(tags)
                        .tag("outcome", extended ? "extended" : "failed").tag("trigger", lower(trigger))
                        .description("Extension rounds of held leases").register(registry);
            }
            return t;
        }

        Counter lost(LossReason reason) {
            Counter c = lost[reason.ordinal()];
            if (c == null) {
                lost[reason.ordinal()] = c = Counter.builder("redlock.leases.lost").tags(tags).tag("reason", lower(reason))
                        .description("Leases lost before they were released").register(registry);
            }
            return c;
        }

        Timer validity(boolean atExtend) {
            Timer t = atExtend ? validityAtExtend : validityAtAcquire;
            if (t == null) {
                t = Timer.builder("redlock.lease.validity").tags(tags).tag("operation", atExtend ? "extend" : "acquire")
                        .description("Validity left when a lease was granted or extended").register(registry);
                if (atExtend) validityAtExtend = t;
                else validityAtAcquire = t;
            }
            return t;
        }

        Timer lateness() {
            Timer t = lateness;
            if (t == null) {
                lateness = t = Timer.builder("redlock.watchdog.lateness").tags(tags)
                        .description("How late the watchdog started a renewal").register(registry);
            }
            return t;
        }
    }

    /** The gauge and counter of one election resource. */
    private final class ElectionMeters {
        final AtomicInteger leading = new AtomicInteger();
        final Counter changes;

        ElectionMeters(String election) {
            Tags t = common.and("election", election);
            Gauge.builder("redlock.leader", leading, AtomicInteger::get).tags(t).strongReference(true)
                    .description("1 while an election of this process leads, else 0").register(registry);
            changes = Counter.builder("redlock.leader.changes").tags(t)
                    .description("Times an election of this process gained or lost leadership").register(registry);
        }
    }

    private ResourceMeters meters(String resource) {
        if (resourceTag == null) return untagged;
        String value = resourceTag.apply(resource);
        if (value == null || value.isEmpty()) value = OTHER;
        ResourceMeters m = byResource.get(value);
        if (m != null) return m;
        if (byResource.size() >= RedlockMetrics.MAX_RESOURCE_TAG_VALUES) {
            if (!resourceOverflowLogged) {
                resourceOverflowLogged = true;
                log.warn("redlock metrics: the resource tag mapping gave more than {} values (last: '{}'); further "
                        + "values are counted as '{}': map resources to a small set", RedlockMetrics.MAX_RESOURCE_TAG_VALUES,
                        value, OTHER);
            }
            value = OTHER;
        }
        String v = value;
        return byResource.computeIfAbsent(v, k -> new ResourceMeters(common.and("resource", k)));
    }

    private static String lower(Enum<?> e) {
        return e.name().toLowerCase(Locale.ROOT);
    }

    @Override
    public void onAcquire(String resource, AcquireMode mode, AcquireOutcome outcome, int rounds, long nanos) {
        if (!observed) meters(resource).acquire(outcome, mode).record(nanos, TimeUnit.NANOSECONDS);
        if (rounds > 0) this.rounds.record(rounds);
    }

    @Override
    public void onNodeRequest(int node, String address, Operation operation, NodeOutcome.Kind result, long nanos) {
        int i = (node * OPERATIONS.length + operation.ordinal()) * RESULTS.length + result.ordinal();
        if (i < 0 || i >= nodeRequests.length) return;
        Timer t = nodeRequests[i];
        if (t == null) {
            nodeRequests[i] = t = Timer.builder("redlock.node.requests").tags(common).tag("node", address)
                    .tag("operation", lower(operation)).tag("result", lower(result))
                    .description("Each node's answer to each request").register(registry);
        }
        t.record(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void onLeaseGranted(String resource, long validityNanos) {
        active.incrementAndGet();
        meters(resource).validity(false).record(validityNanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void onExtend(String resource, ExtendTrigger trigger, boolean extended, long nanos, long validityNanos) {
        ResourceMeters m = meters(resource);
        if (!observed) m.extend(extended, trigger).record(nanos, TimeUnit.NANOSECONDS);
        if (extended) m.validity(true).record(validityNanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void onLeaseReleased(String resource) {
        active.decrementAndGet();
    }

    @Override
    public void onLeaseLost(String resource, LossReason reason) {
        active.decrementAndGet();
        meters(resource).lost(reason).increment();
    }

    @Override
    public void onWatchdogLateness(String resource, long lateNanos) {
        meters(resource).lateness().record(lateNanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void onLeadershipChange(String election, String instanceId, boolean leader, long epoch) {
        ElectionMeters m = elections.computeIfAbsent(election, ElectionMeters::new);
        if (leader) m.leading.incrementAndGet();
        else m.leading.decrementAndGet();
        m.changes.increment();
    }
}
