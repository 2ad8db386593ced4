package dev.redlock.chaos.nemesis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.chaos.history.FaultWindow;
import dev.redlock.chaos.history.History;
import dev.redlock.chaos.workload.Resource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** The families as parts (no processes): which kinds each injects, the client family, skipping, healing. */
class FaultFamiliesTest {
    private final History history = new History(1, 1);
    private final Resource resource = new Resource(history);

    @Test
    void everyKindBelongsToExactlyOneFamily() {
        Nemesis nemesis = new Nemesis(null, history, resource, ClockMode.SIMULATED_TTL, "t:");
        Set<FaultKind> seen = EnumSet.noneOf(FaultKind.class);
        List<FaultKind.Family> families = new ArrayList<>();
        for (FaultFamily f : nemesis.families()) {
            families.add(f.family());
            for (FaultKind k : f.kinds()) {
                assertTrue(seen.add(k), k + " in two families");
                assertEquals(f.family(), k.family());
            }
        }
        assertEquals(EnumSet.allOf(FaultKind.class), seen, "a kind no family injects");
        assertEquals(List.of(FaultKind.Family.values()), families, "one family per FaultKind.Family, in order");
    }

    @Test
    void aClientStallIsRecordedAsAWindowOfItsLength() {
        ClientFaults client = new ClientFaults(new FaultRecorder(history, Set.of()), resource);
        client.stallClient(1, Duration.ofMillis(30));
        FaultWindow w = history.faults().get(0);
        assertEquals(FaultKind.CLIENT_STALL, w.kind());
        assertEquals(List.of(1), w.clients());
        assertTrue(w.endNanos() - w.startNanos() >= TimeUnit.MILLISECONDS.toNanos(30), w.toString());
    }

    @Test
    void resourceLatencyHoldsWritesInTransitUntilReleasedAndHealRemovesIt() throws Exception {
        FaultRecorder recorder = new FaultRecorder(history, Set.of());
        ClientFaults client = new ClientFaults(recorder, resource);
        AtomicBoolean release = new AtomicBoolean();
        FaultHandle h = client.resourceLatency(0, Duration.ZERO, release::get, Duration.ofSeconds(30));
        CompletableFuture<Resource.Outcome> held = CompletableFuture.supplyAsync(
                () -> resource.write(0, "a", 1, resource.read()));
        Thread.sleep(100);
        assertFalse(held.isDone(), "the write landed while held in transit");
        release.set(true);
        held.get(10, TimeUnit.SECONDS);
        h.close();
        assertEquals(List.of(), recorder.open());
        assertEquals(FaultKind.RESOURCE_LATENCY, history.faults().get(0).kind());
        long start = System.nanoTime();
        resource.write(0, "a", 2, resource.read());
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(10), "healed: the write is no longer held");
    }

    @Test
    void aSkippedKindIsNotedNotInjected() {
        FaultRecorder recorder = new FaultRecorder(history, Set.of(FaultKind.CLIENT_STALL, FaultKind.RESOURCE_LATENCY));
        ClientFaults client = new ClientFaults(recorder, resource);
        long start = System.nanoTime();
        client.stallClient(0, Duration.ofSeconds(5));
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(4), "a skipped stall did not stall");
        try (FaultHandle h = client.resourceLatency(0, Duration.ofSeconds(5))) {
            assertTrue(h.description().startsWith("skipped"), h.description());
        }
        assertEquals(List.of(), history.faults(), "no window for a skipped fault");
        assertTrue(history.notes().stream().anyMatch(n -> n.contains("SKIPPED") && n.contains("client-stall")),
                history.notes().toString());
    }

    @Test
    void healAllHealsNewestFirstAndRecordsEveryWindow() {
        FaultRecorder recorder = new FaultRecorder(history, Set.of());
        List<String> healed = new ArrayList<>();
        recorder.open(FaultKind.CUT, "first", new int[] {0}, List.of(), true, History.now(), () -> healed.add("first"));
        recorder.open(FaultKind.PAUSE, "second", new int[] {0}, List.of(), true, History.now(), () -> healed.add("second"));
        recorder.open(FaultKind.KILL, "broken", new int[] {0}, List.of(), true, History.now(), () -> {
            throw new IllegalStateException("cannot heal");
        });
        recorder.healAll();
        assertEquals(List.of("second", "first"), healed, "newest first, every heal attempted");
        assertEquals(3, history.faults().size(), "a window even for the heal that failed");
        assertEquals(List.of(), recorder.open());
    }
}
