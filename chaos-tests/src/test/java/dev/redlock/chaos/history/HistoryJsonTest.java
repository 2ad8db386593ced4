package dev.redlock.chaos.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.chaos.checker.Checker;
import dev.redlock.chaos.nemesis.FaultKind;
import java.io.StringReader;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A history written as JSON lines and read back is the same history, element by element and to every checker. */
class HistoryJsonTest {
    private static final long MS = 1_000_000L;

    /** Two overlapping leases, a stale write, a fault, samples, notes: every kind of element a run records. */
    private static History sample() {
        History h = new History(5, 3);
        h.span(1_000 * MS, 3_000 * MS);
        h.clientList(1, 3, 2);
        h.append(Event.Type.INVOKE, Event.Op.ACQUIRE, 0, 1_010 * MS, "", -1, 0, "");
        h.append(Event.Type.OK, Event.Op.ACQUIRE, 0, 1_020 * MS, "c0#1", 7, 280 * MS, "");
        h.write(Write.Store.FENCED, 0, 1_030 * MS, 1_031 * MS, "c0#1", 7, 0, 1, 0, -1, true);
        h.append(Event.Type.INVOKE, Event.Op.ACQUIRE, 1, 1_040 * MS, "", -1, 0, "");
        h.append(Event.Type.OK, Event.Op.ACQUIRE, 1, 1_050 * MS, "c1#1", 8, 280 * MS, "");
        h.write(Write.Store.UNFENCED, 0, 1_060 * MS, 1_070 * MS, "c0#1", 7, 0, 1, 1, 8, true);
        h.append(Event.Type.INFO, Event.Op.RELEASE, 0, 1_400 * MS, "c0#1", 7, 0, "timeout \"quoted\"\nnew line");
        h.fault(new FaultWindow(1_015 * MS, 1_200 * MS, FaultKind.values()[0], "cut n1", List.of(0, 1), List.of(), true));
        h.sample(new NodeSample(0, 1_025 * MS, 1_026 * MS, true, "v-1", 270, "run-a/rid-b"));
        h.sample(NodeSample.unanswered(1, 1_025 * MS));
        h.ownerValue("c0#1", "v-1");
        h.samplerError("node 3: connection refused");
        h.note("node 2 killed");
        return h;
    }

    @Test
    void roundTripKeepsEveryElement() throws Exception {
        History h = sample();
        History back = HistoryJson.read(new StringReader(json(h)));
        assertEquals(h.events(), back.events());
        assertEquals(h.writes(), back.writes());
        assertEquals(h.faults(), back.faults());
        assertEquals(h.samples(), back.samples());
        assertEquals(h.ownerValues(), back.ownerValues());
        assertEquals(h.samplerErrors(), back.samplerErrors());
        assertEquals(h.notes(), back.notes());
        assertEquals(h.startNanos(), back.startNanos());
        assertEquals(h.endNanos(), back.endNanos());
        assertEquals(List.of(3, 2), List.of(back.listOf(1)[0], back.listOf(1)[1]));
        assertEquals(h.dump(), back.dump());
        assertEquals(json(h), json(back), "written again, byte for byte");
    }

    @Test
    void checkersDecideTheSameOnTheStoredHistory() throws Exception {
        History h = sample();
        History back = HistoryJson.read(new StringReader(json(h)));
        String then = Checker.standard().check(h).toString();
        assertTrue(then.contains("INVALID"), then);
        assertEquals(then, Checker.standard().check(back).toString());
    }

    @Test
    void aDamagedLineIsNamed() {
        String text = "{\"run\":{\"nodes\":5,\"quorum\":3,\"startNanos\":0,\"endNanos\":1,\"clientLists\":{}}}\n{\"bogus\":1}\n";
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> HistoryJson.read(new StringReader(text)));
        assertTrue(e.getMessage().startsWith("history line 2: unknown kind 'bogus'"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> HistoryJson.read(new StringReader("{\"event\":{}}\n")));
    }

    private static String json(History h) throws Exception {
        StringWriter w = new StringWriter();
        HistoryJson.write(h, w);
        return w.toString();
    }
}
