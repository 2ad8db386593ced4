package dev.redlock.micrometer;

import dev.redlock.Redlock;
import io.micrometer.observation.ObservationRegistry;
import java.util.Objects;

/**
 * Micrometer {@link io.micrometer.observation.Observation}s of one {@link Redlock}'s acquisitions, extensions and
 * releases, so they show up as spans through Micrometer Tracing (OpenTelemetry or Brave) and, with the registry's
 * meter handler, as timers: {@code new RedlockObservations(redlock, observationRegistry)}; the Spring Boot starter
 * creates one when an {@code ObservationRegistry} bean exists.
 *
 * <table>
 *   <caption>Observations (low-cardinality keys)</caption>
 *   <tr><td>{@value #ACQUIRE}</td><td>an acquisition, from the call to its outcome [{@code mode}: blocking, try, async;
 *       {@code outcome}: acquired, unavailable, error, cancelled]</td></tr>
 *   <tr><td>{@value #EXTEND}</td><td>an extension [{@code trigger}: watchdog, manual; {@code outcome}: extended,
 *       failed]</td></tr>
 *   <tr><td>{@value #RELEASE}</td><td>a release, until a quorum of nodes answered [{@code outcome}: released,
 *       incomplete]</td></tr>
 * </table>
 *
 * <p>The resource name is a high-cardinality key ({@code resource}, on spans, never on timers) only when
 * {@link Builder#resourceName(boolean)} asks for it. An acquisition or release starts on the caller's thread, so the
 * caller's current observation (a request's span) is its parent; a watchdog extension starts on the Redlock's
 * scheduler thread, without a parent. Only an acquisition that ended in {@code error} is recorded as an error
 * (an unavailable lock is an outcome).
 *
 * <p><b>Timers and {@link RedlockMetrics}.</b> A meter handler turns {@code redlock.acquire} and
 * {@code redlock.extend} into timers of those names with the same tags as {@code RedlockMetrics}' plus
 * {@code error}; bind {@code RedlockMetrics} with {@link RedlockMetrics.Builder#observed(boolean) observed(true)}
 * beside it (the starter does) so each name is registered once.
 *
 * <p>Thread-safe; costs nothing per step when the registry is a no-op one. {@link #close()} stops observing.
 */
public final class RedlockObservations implements AutoCloseable {
    /** The observation of an acquisition. */
    public static final String ACQUIRE = "redlock.acquire";
    /** The observation of an extension of a held lease. */
    public static final String EXTEND = "redlock.extend";
    /** The observation of a release. */
    public static final String RELEASE = "redlock.release";

    private final Redlock redlock;
    private final ObservationListener listener;

    /** Observes {@code redlock} into {@code registry} from now on, without the resource name. */
    public RedlockObservations(Redlock redlock, ObservationRegistry registry) {
        this(builder(redlock, registry));
    }

    private RedlockObservations(Builder b) {
        this.redlock = b.redlock;
        this.listener = new ObservationListener(b.registry, b.resourceName);
        redlock.addListener(listener);
    }

    /** A builder, for the resource name as a high-cardinality key. */
    public static Builder builder(Redlock redlock, ObservationRegistry registry) {
        return new Builder(Objects.requireNonNull(redlock, "redlock"), Objects.requireNonNull(registry, "registry"));
    }

    /** Stops observing (steps in progress still end). Idempotent. */
    @Override
    public void close() {
        redlock.removeListener(listener);
    }

    /** Mutable builder; {@link #build()} starts observing. Not thread-safe. */
    public static final class Builder {
        private final Redlock redlock;
        private final ObservationRegistry registry;
        private boolean resourceName;

        private Builder(Redlock redlock, ObservationRegistry registry) {
            this.redlock = redlock;
            this.registry = registry;
        }

        /** Adds the resource name as the high-cardinality key {@code resource} (spans only); default false. */
        public Builder resourceName(boolean resourceName) {
            this.resourceName = resourceName;
            return this;
        }

        /** Starts observing the Redlock. */
        public RedlockObservations build() {
            return new RedlockObservations(this);
        }
    }
}
