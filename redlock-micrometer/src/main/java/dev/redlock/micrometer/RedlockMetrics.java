package dev.redlock.micrometer;

import dev.redlock.Redlock;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * Micrometer meters for one {@link Redlock}, fed by its {@link dev.redlock.RedlockListener} events. Bind it to a
 * registry ({@code new RedlockMetrics(redlock).bindTo(registry)}; Spring Boot binds every {@code MeterBinder} bean):
 *
 * <table>
 *   <caption>Meters (tags in brackets)</caption>
 *   <tr><td>{@code redlock.acquire}</td><td>timer</td><td>each acquisition, from the call to its outcome
 *       [{@code outcome}: acquired, unavailable, error, cancelled; {@code mode}: blocking, try, async]</td></tr>
 *   <tr><td>{@code redlock.acquire.rounds}</td><td>summary</td><td>quorum rounds per acquisition</td></tr>
 *   <tr><td>{@code redlock.node.requests}</td><td>timer</td><td>each node's answer to each request
 *       [{@code node}: host:port; {@code operation}: acquire, fence, extend, release; {@code result}: granted,
 *       refused, error, timeout]</td></tr>
 *   <tr><td>{@code redlock.lease.validity}</td><td>timer</td><td>validity left when a lease is granted or extended
 *       [{@code operation}: acquire, extend]</td></tr>
 *   <tr><td>{@code redlock.lease.active}</td><td>gauge</td><td>leases held by this Redlock now</td></tr>
 *   <tr><td>{@code redlock.extend}</td><td>timer</td><td>each extension round [{@code outcome}: extended, failed;
 *       {@code trigger}: watchdog, manual]</td></tr>
 *   <tr><td>{@code redlock.watchdog.lateness}</td><td>timer</td><td>how late the watchdog started each renewal</td></tr>
 *   <tr><td>{@code redlock.leases.lost}</td><td>counter</td><td>leases lost [{@code reason}: expired,
 *       extend_failed, watchdog_failed, max_hold]</td></tr>
 *   <tr><td>{@code redlock.leader}</td><td>gauge</td><td>1 while an election of this process leads, else 0
 *       [{@code election}: the election's resource]</td></tr>
 *   <tr><td>{@code redlock.leader.changes}</td><td>counter</td><td>each time an election of this process gains or
 *       loses leadership [{@code election}]</td></tr>
 * </table>
 *
 * <p><b>Bounded tags.</b> Resource names are never tags by default (a tag per lock name would grow without bound).
 * {@link Builder#resourceTag} adds a {@code resource} tag whose value the application maps from the resource name
 * to a small set (e.g. {@code "invoice:42" -> "invoice"}) on {@code redlock.acquire}, {@code redlock.lease.validity},
 * {@code redlock.extend}, {@code redlock.watchdog.lateness} and {@code redlock.leases.lost}; past
 * {@value #MAX_RESOURCE_TAG_VALUES} distinct values the rest are counted as {@code other} (logged once). Node tags
 * are bounded by the configuration; election tags by the elections the application runs.
 *
 * <p><b>Cost and threads.</b> Meters are created on first use and then cached per tag combination, so recording
 * allocates nothing beyond what the registry's meters do; it runs on the Redlock's threads (see the listener's
 * rules) and never blocks. Histograms and percentiles are off unless configured (a {@code MeterFilter}, or Spring
 * Boot's {@code management.metrics.distribution.*} properties).
 *
 * <p><b>Not guaranteed.</b> Events from before {@link #bindTo} are not counted ({@code redlock.lease.active} counts
 * the leases granted since). Two {@code RedlockMetrics} of two Redlocks bound to one registry share meters unless
 * {@link Builder#tags} sets them apart. Thread-safe. {@link #close()} stops recording (meters stay registered).
 */
public final class RedlockMetrics implements MeterBinder, AutoCloseable {
    /** Distinct values of the {@code resource} tag before the rest are reported as {@code other}. */
    public static final int MAX_RESOURCE_TAG_VALUES = 100;

    private final Redlock redlock;
    private final Tags tags;
    private final Function<String, String> resourceTag;
    private final boolean observed;
    private final List<MetricsListener> bound = new CopyOnWriteArrayList<>();

    /** Meters for {@code redlock}, no extra tags, no resource tag. */
    public RedlockMetrics(Redlock redlock) {
        this(builder(redlock));
    }

    private RedlockMetrics(Builder b) {
        this.redlock = b.redlock;
        this.tags = b.tags;
        this.resourceTag = b.resourceTag;
        this.observed = b.observed;
    }

    /** A builder for extra common tags or a resource tag. */
    public static Builder builder(Redlock redlock) {
        return new Builder(Objects.requireNonNull(redlock, "redlock"));
    }

    /** Registers the meters that exist from the start and starts recording into {@code registry}. */
    @Override
    public void bindTo(MeterRegistry registry) {
        MetricsListener l = new MetricsListener(registry, tags, resourceTag, redlock.config().nodes().size(), observed);
        bound.add(l);
        redlock.addListener(l);
    }

    /** Stops recording into every registry this was bound to; meters stay registered. Idempotent. */
    @Override
    public void close() {
        for (MetricsListener l : bound) redlock.removeListener(l);
        bound.clear();
    }

    /** Mutable, reusable builder; {@link #build()} returns an immutable binder. Not thread-safe. */
    public static final class Builder {
        private final Redlock redlock;
        private Tags tags = Tags.empty();
        private Function<String, String> resourceTag;
        private boolean observed;

        private Builder(Redlock redlock) {
            this.redlock = redlock;
        }

        /** Tags added to every meter (e.g. {@code Tags.of("redlock", "orders")} to tell two Redlocks apart). */
        public Builder tags(Iterable<Tag> tags) {
            this.tags = Tags.of(Objects.requireNonNull(tags, "tags"));
            return this;
        }

        /**
         * Adds a {@code resource} tag: {@code mapping} turns a resource name into one of a small set of values (it
         * must not return the name itself for unbounded names). Called on the Redlock's threads: keep it cheap.
         * {@code null} removes the tag.
         */
        public Builder resourceTag(Function<String, String> mapping) {
            this.resourceTag = mapping;
            return this;
        }

        /**
         * True when {@link RedlockObservations} observe the same Redlock into an observation registry whose meter
         * handler records to this meter registry: its {@code redlock.acquire} and {@code redlock.extend} timers then
         * replace this binder's (same names, same tags plus {@code error}), which it leaves out so each name is
         * registered once. Default false.
         */
        public Builder observed(boolean observed) {
            this.observed = observed;
            return this;
        }

        /**
         * Builds the binder.
         *
         * @throws IllegalArgumentException when {@code tags} use a key the meters use themselves
         */
        public RedlockMetrics build() {
            for (Tag t : tags) {
                if (MetricsListener.OWN_TAG_KEYS.contains(t.getKey())) {
                    throw new IllegalArgumentException("tags must not use the keys " + MetricsListener.OWN_TAG_KEYS
                            + " (the meters' own), got " + t.getKey());
                }
            }
            return new RedlockMetrics(this);
        }
    }
}
