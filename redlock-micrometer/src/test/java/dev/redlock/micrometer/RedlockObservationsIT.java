package dev.redlock.micrometer;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brave.Tracing;
import brave.handler.MutableSpan;
import brave.handler.SpanHandler;
import brave.propagation.TraceContext;
import dev.redlock.Lease;
import dev.redlock.Redlock;
import dev.redlock.testing.RedisNodes;
import dev.redlock.testkit.Sleep;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import io.micrometer.tracing.brave.bridge.BraveBaggageManager;
import io.micrometer.tracing.brave.bridge.BraveCurrentTraceContext;
import io.micrometer.tracing.brave.bridge.BraveTracer;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link RedlockObservations} on real nodes: acquire, extend and release are observations with their {@code outcome};
 * through Micrometer Tracing's Brave bridge they are spans under the caller's span; through the meter handler they are
 * timers that replace {@link RedlockMetrics}' of the same name when it is bound {@code observed}.
 */
class RedlockObservationsIT {
    @RegisterExtension
    static final RedisNodes REDIS = new RedisNodes(3);

    private static final Duration WAIT = Duration.ofSeconds(10);

    @Test
    void acquireExtendAndReleaseAreObservedWithTheirOutcome() {
        TestObservationRegistry registry = TestObservationRegistry.create();
        try (Redlock redlock = Redlock.create(REDIS.config().build());
             Redlock holder = Redlock.create(REDIS.config().build())) {
            new RedlockObservations(redlock, registry);
            Lease lease = redlock.acquire("observed", Duration.ofSeconds(2));
            lease.extend(Duration.ofSeconds(2));
            lease.release();
            Lease held = holder.acquire("taken", Duration.ofSeconds(2));
            assertTrue(redlock.tryAcquire("taken", Duration.ofSeconds(1)).isEmpty());
            held.release();
        }
        TestObservationRegistryAssert.assertThat(registry)
                .hasNumberOfObservationsWithNameEqualTo(RedlockObservations.ACQUIRE, 2)
                .hasAnObservation(o -> o.hasNameEqualTo("redlock.acquire")
                        .hasLowCardinalityKeyValue("mode", "blocking").hasLowCardinalityKeyValue("outcome", "acquired")
                        .doesNotHaveHighCardinalityKeyValueWithKey("resource"))
                .hasAnObservation(o -> o.hasNameEqualTo("redlock.acquire")
                        .hasLowCardinalityKeyValue("mode", "try").hasLowCardinalityKeyValue("outcome", "unavailable")
                        .doesNotHaveError())
                .hasAnObservation(o -> o.hasNameEqualTo("redlock.extend")
                        .hasLowCardinalityKeyValue("trigger", "manual").hasLowCardinalityKeyValue("outcome", "extended"))
                .hasAnObservation(o -> o.hasNameEqualTo("redlock.release")
                        .hasLowCardinalityKeyValue("outcome", "released"));
    }

    @Test
    void theResourceNameIsAHighCardinalityKeyOnlyWhenAskedFor() {
        TestObservationRegistry registry = TestObservationRegistry.create();
        try (Redlock redlock = Redlock.create(REDIS.config().build())) {
            RedlockObservations.builder(redlock, registry).resourceName(true).build();
            redlock.acquire("invoice:42", Duration.ofSeconds(2)).release();
        }
        TestObservationRegistryAssert.assertThat(registry)
                .hasAnObservation(o -> o.hasNameEqualTo("redlock.acquire")
                        .hasHighCardinalityKeyValue("resource", "invoice:42")
                        .doesNotHaveLowCardinalityKeyValueWithKey("resource"));
    }

    @Test
    void watchdogExtensionsAreObservedAndCloseStopsObserving() {
        TestObservationRegistry registry = TestObservationRegistry.create();
        try (Redlock redlock = Redlock.create(REDIS.config().build())) {
            RedlockObservations observations = new RedlockObservations(redlock, registry);
            redlock.withLock("kept", Duration.ofMillis(600), lease -> {
                Sleep.millis(700);
                return null;
            });
            observations.close();
            redlock.acquire("unobserved", Duration.ofSeconds(1)).release();
        }
        TestObservationRegistryAssert.assertThat(registry)
                .hasAnObservation(o -> o.hasNameEqualTo("redlock.extend")
                        .hasLowCardinalityKeyValue("trigger", "watchdog").hasLowCardinalityKeyValue("outcome", "extended"))
                .hasNumberOfObservationsWithNameEqualTo(RedlockObservations.ACQUIRE, 1)
                .hasNumberOfObservationsWithNameEqualTo(RedlockObservations.RELEASE, 1);
    }

    @Test
    void acquireAndReleaseAreSpansUnderTheCallersSpan() {
        List<MutableSpan> spans = new CopyOnWriteArrayList<>();
        Tracing tracing = Tracing.newBuilder().addSpanHandler(new SpanHandler() {
            @Override
            public boolean end(TraceContext context, MutableSpan span, Cause cause) {
                spans.add(span);
                return true;
            }
        }).build();
        try (Redlock redlock = Redlock.create(REDIS.config().build())) {
            BraveTracer tracer = new BraveTracer(tracing.tracer(), new BraveCurrentTraceContext(tracing.currentTraceContext()),
                    new BraveBaggageManager());
            ObservationRegistry registry = ObservationRegistry.create();
            registry.observationConfig().observationHandler(new DefaultTracingObservationHandler(tracer));
            new RedlockObservations(redlock, registry);
            Observation request = Observation.start("http.request", registry);
            try (Observation.Scope scope = request.openScope()) {
                Lease lease = redlock.acquire("traced", Duration.ofSeconds(2));
                lease.release();
            } finally {
                request.stop();
            }
            await().atMost(WAIT).until(() -> spans.size() >= 3);
        } finally {
            tracing.close();
        }
        MutableSpan parent = span(spans, "http.request");
        MutableSpan acquire = span(spans, "redlock.acquire");
        MutableSpan release = span(spans, "redlock.release");
        assertEquals(parent.traceId(), acquire.traceId());
        assertEquals(parent.id(), acquire.parentId(), "the acquire span is a child of the caller's span");
        assertEquals(parent.id(), release.parentId(), "so is the release span");
        assertEquals("acquired", acquire.tag("outcome"));
        assertEquals("blocking", acquire.tag("mode"));
        assertNull(acquire.tag("resource"), "no resource name unless asked for");
        assertTrue(acquire.finishTimestamp() >= acquire.startTimestamp());
    }

    @Test
    void timersFromObservationsReplaceTheBindersWhenItIsBoundObserved() {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        ObservationRegistry registry = ObservationRegistry.create();
        registry.observationConfig().observationHandler(new DefaultMeterObservationHandler(meters));
        try (Redlock redlock = Redlock.create(REDIS.config().build())) {
            new RedlockObservations(redlock, registry);
            RedlockMetrics.builder(redlock).observed(true).build().bindTo(meters);
            Lease lease = redlock.acquire("timed", Duration.ofSeconds(2));
            lease.extend(Duration.ofSeconds(2));
            lease.release();
        }
        List<Meter.Id> acquireTimers = meters.find("redlock.acquire").timers().stream().map(Timer::getId).toList();
        assertEquals(1, acquireTimers.size(), "one redlock.acquire timer, from the observation: " + acquireTimers);
        Timer acquire = meters.get("redlock.acquire").tags("outcome", "acquired", "mode", "blocking", "error", "none").timer();
        assertEquals(1, acquire.count());
        assertEquals(1, meters.get("redlock.extend").tags("outcome", "extended", "trigger", "manual").timer().count());
        assertEquals(1, meters.get("redlock.release").tags("outcome", "released").timer().count());
        assertFalse(meters.find("redlock.acquire.rounds").summaries().isEmpty(), "the binder's other meters stay");
    }

    private static MutableSpan span(List<MutableSpan> spans, String name) {
        return spans.stream().filter(s -> name.equals(s.name())).findFirst()
                .orElseThrow(() -> new AssertionError("no span " + name + " in " + spans));
    }
}
