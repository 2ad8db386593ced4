package dev.redlock.chaos.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.chaos.checker.Anomaly;
import dev.redlock.chaos.history.Event;
import dev.redlock.chaos.nemesis.FaultKind;
import dev.redlock.chaos.history.FaultWindow;
import dev.redlock.chaos.history.History;
import dev.redlock.chaos.history.Write;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The timeline model and its SVG, on a hand-built history with an overlap, writes and a fault window. */
class TimelineTest {
    private static final long MS = 1_000_000L;
    private static final long T0 = 5_000 * MS;

    private static History history() {
        History h = new History(5, 3);
        h.span(T0, T0 + 1000 * MS);
        h.append(Event.Type.INVOKE, Event.Op.ACQUIRE, 0, T0 + 10 * MS, "", -1, 0, "");
        h.append(Event.Type.OK, Event.Op.ACQUIRE, 0, T0 + 20 * MS, "c0#1", 7, 300 * MS, "");
        h.append(Event.Type.INVOKE, Event.Op.ACQUIRE, 1, T0 + 200 * MS, "", -1, 0, "");
        h.append(Event.Type.OK, Event.Op.ACQUIRE, 1, T0 + 210 * MS, "c1#1", 8, 300 * MS, "");
        h.append(Event.Type.INVOKE, Event.Op.RELEASE, 1, T0 + 400 * MS, "c1#1", 8, 0, "");
        h.write(Write.Store.FENCED, 1, T0 + 300 * MS, T0 + 301 * MS, "c1#1", 8, 0, 1, 0, 7, true);
        h.write(Write.Store.FENCED, 0, T0 + 500 * MS, T0 + 501 * MS, "c0#1", 7, 0, 1, 1, 8, false);
        h.write(Write.Store.UNFENCED, 0, T0 + 500 * MS, T0 + 502 * MS, "c0#1", 7, 0, 1, 1, 8, true);
        return h;
    }

    @Test
    void barsEndAtTheEarlierOfValidityAndReleaseAndStaleWritesAreMarked() {
        FaultWindow pause = new FaultWindow(T0 + 100 * MS, T0 + 600 * MS, FaultKind.CLIENT_STALL, "c0 paused <500ms>", List.of(), List.of(0), false);
        Anomaly overlap = new Anomaly("overlap", "c0#1 and c1#1 overlap", T0 + 210 * MS, T0 + 320 * MS, List.of(0, 1));
        Timeline t = Timeline.of(history(), List.of(pause), List.of(overlap), 2);
        assertEquals(List.of(0, 1), t.lanes());
        assertEquals(2, t.bars().size());
        Timeline.Bar a = t.bars().get(0);
        assertEquals(20.0, a.fromMs(), 1e-9);
        assertEquals(320.0, a.toMs(), 1e-9, "never released: ends with its validity");
        assertFalse(a.endedByRelease());
        Timeline.Bar b = t.bars().get(1);
        assertEquals(400.0, b.toMs(), 1e-9, "released before its validity ended");
        assertTrue(t.ticks().stream().anyMatch(k -> k.store() == Write.Store.UNFENCED && k.accepted() && k.stale()));
        assertTrue(t.ticks().stream().anyMatch(k -> k.store() == Write.Store.FENCED && !k.accepted()));
        assertEquals(1, t.faults().size());
        assertEquals(1, t.anomalies().size());

        String svg = HtmlReport.svg(t);
        assertTrue(svg.startsWith("<svg"));
        assertTrue(svg.contains("client 0") && svg.contains("client 1"));
        assertTrue(svg.contains("#e53935"), "violation and stale write drawn in red");
        assertTrue(svg.contains("c0 paused &lt;500ms&gt;"), "labels are escaped");
        assertFalse(svg.contains("<500ms>"));
    }
}
