package dev.redlock.micrometer;

import dev.redlock.RedlockListener;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import java.util.Locale;

/**
 * The listener behind {@link RedlockObservations}: one {@link Observation} per acquisition, extension and release,
 * started where the step starts (the caller's thread for acquire and release, so the caller's current observation
 * becomes its parent) and stopped where it ends.
 */
final class ObservationListener implements RedlockListener {
    private final ObservationRegistry registry;
    private final boolean resourceName;

    ObservationListener(ObservationRegistry registry, boolean resourceName) {
        this.registry = registry;
        this.resourceName = resourceName;
    }

    @Override
    public Step onAcquireStart(String resource, AcquireMode mode) {
        return start(RedlockObservations.ACQUIRE, resource, "mode", lower(mode));
    }

    @Override
    public Step onExtendStart(String resource, ExtendTrigger trigger) {
        return start(RedlockObservations.EXTEND, resource, "trigger", lower(trigger));
    }

    @Override
    public Step onReleaseStart(String resource) {
        return start(RedlockObservations.RELEASE, resource, null, null);
    }

    private Step start(String name, String resource, String key, String value) {
        if (registry.isNoop()) return null;
        Observation o = Observation.createNotStarted(name, registry);
        if (key != null) o.lowCardinalityKeyValue(key, value);
        if (resourceName) o.highCardinalityKeyValue("resource", resource);
        o.start();
        return (outcome, error) -> {
            o.lowCardinalityKeyValue("outcome", outcome);
            // an unavailable lock or a cancelled wait is an outcome, not a failure of the library
            if (error != null && "error".equals(outcome)) o.error(error);
            o.stop();
        };
    }

    private static String lower(Enum<?> e) {
        return e.name().toLowerCase(Locale.ROOT);
    }
}
