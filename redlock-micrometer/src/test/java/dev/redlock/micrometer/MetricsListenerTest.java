package dev.redlock.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.NodeOutcome;
import dev.redlock.Redlock;
import dev.redlock.RedlockConfig;
import dev.redlock.RedlockListener.AcquireMode;
import dev.redlock.RedlockListener.AcquireOutcome;
import dev.redlock.RedlockListener.Operation;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.search.Search;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The tag rules of the metrics listener, fed events directly (what the events are is RedlockMetricsIT's job). */
class MetricsListenerTest {
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    @Test
    void theResourceTagIsBoundedAndEverythingPastTheBoundIsOther() {
        MetricsListener l = new MetricsListener(registry, Tags.empty(), r -> r, 1, false);
        for (int i = 0; i < RedlockMetrics.MAX_RESOURCE_TAG_VALUES + 50; i++) {
            l.onAcquire("r" + i, AcquireMode.BLOCKING, AcquireOutcome.ACQUIRED, 1, 1_000);
        }
        long values = registry.find("redlock.acquire").timers().stream().map(t -> t.getId().getTag("resource")).distinct().count();
        assertEquals(RedlockMetrics.MAX_RESOURCE_TAG_VALUES + 1, values, "the bound plus 'other'");
        assertEquals(50, registry.get("redlock.acquire").tag("resource", "other").timer().count());
    }

    @Test
    void aMappingWithoutAValueCountsAsOther() {
        MetricsListener l = new MetricsListener(registry, Tags.empty(), r -> null, 1, false);
        l.onAcquire("x", AcquireMode.TRY, AcquireOutcome.UNAVAILABLE, 1, 1_000);
        assertEquals(1, registry.get("redlock.acquire").tags("resource", "other", "mode", "try").timer().count());
    }

    @Test
    void withoutAMappingNoMeterCarriesAResourceTag() {
        MetricsListener l = new MetricsListener(registry, Tags.of("app", "billing"), null, 2, false);
        l.onAcquire("invoice:42", AcquireMode.ASYNC, AcquireOutcome.ACQUIRED, 2, 1_000);
        l.onLeaseGranted("invoice:42", 1_000_000);
        l.onNodeRequest(1, "10.0.0.2:6379", Operation.ACQUIRE, NodeOutcome.Kind.GRANTED, 1_000);
        assertTrue(registry.getMeters().stream().allMatch(m -> m.getId().getTag("resource") == null));
        assertTrue(registry.getMeters().stream().allMatch(m -> "billing".equals(m.getId().getTag("app"))));
        assertEquals(1, registry.get("redlock.node.requests").tags("node", "10.0.0.2:6379", "operation", "acquire",
                "result", "granted").timer().count());
        assertNull(Search.in(registry).name("redlock.node.requests").tag("node", "invoice:42").timer());
    }

    @Test
    void commonTagsMayNotUseTheMetersOwnKeys() {
        try (Redlock redlock = Redlock.create(RedlockConfig.builder().nodes("redis://127.0.0.1:1")
                .nodeTimeout(Duration.ofMillis(50)).build())) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> RedlockMetrics.builder(redlock).tags(Tags.of("node", "x")).build());
            assertTrue(e.getMessage().startsWith("tags must not use the keys"), e.getMessage());
            assertTrue(e.getMessage().endsWith("got node"), e.getMessage());
        }
    }
}
