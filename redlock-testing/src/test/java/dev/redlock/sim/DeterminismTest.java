package dev.redlock.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Two runs of the same seed give byte-identical traces; another seed gives another run. */
class DeterminismTest {

    /** A small fault-heavy run: three clients, three nodes, the library's scripts, faults drawn from the seed. */
    static String run(long seed) {
        SimScheduler time = new SimScheduler(seed);
        SimTrace trace = new SimTrace(time, true);
        SimNetwork net = new SimNetwork(time, trace);
        net.defaultDelay(LinkDelay.exponential(Duration.ofNanos(50_000), Duration.ofMillis(2)));
        List<SimNode> nodes = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            nodes.add(net.attach(SimNode.builder(time, "n" + i).persistence(Persistence.AOF_EVERYSEC).build()));
        }
        List<SimClient> clients = List.of(net.client("a"), net.client("b"), net.client("c"));
        String acquire = LibraryScripts.source("ACQUIRE");
        String release = LibraryScripts.source("RELEASE");
        SplittableRandom r = time.random().split();
        for (int step = 0; step < 300; step++) {
            int kind = r.nextInt(20);
            SimClient c = clients.get(r.nextInt(clients.size()));
            SimNode n = nodes.get(r.nextInt(nodes.size()));
            String owner = c.name() + step;
            switch (kind) {
                case 0 -> net.reset(c, n);
                case 1 -> net.partition(c, n);
                case 2 -> net.heal(c, n);
                case 3 -> {
                    if (n.isRunning()) n.kill();
                    else n.restart();
                }
                case 4 -> {
                    if (n.isPaused()) n.resume();
                    else n.pause();
                }
                case 5 -> n.clockOffset(Duration.ofMillis(r.nextInt(2000) - 1000));
                default -> {
                    String script = kind % 2 == 0 ? acquire : release;
                    String[] args = kind % 2 == 0
                            ? new String[] {"EVAL", script, "3", "lock", "fence", "__node", owner, "500", "0", "0", "100000", "600000", "", "120000"}
                            : new String[] {"EVAL", script, "1", "lock", owner, "wake"};
                    c.transport(n).command(args).whenComplete((v, e) -> trace.record("client " + c.name() + " got "
                            + (e == null ? String.valueOf(v) : e.getClass().getSimpleName() + ": " + e.getMessage())));
                }
            }
            time.runFor(Duration.ofMillis(r.nextInt(50)));
        }
        for (SimNode n : nodes) {
            if (!n.isRunning()) n.restart();
            n.resume();
        }
        net.healAll();
        time.runFor(Duration.ofSeconds(5));
        return trace.text();
    }

    @Test
    void theSameSeedGivesTheSameTraceByteForByte() {
        String first = run(1234);
        String second = run(1234);
        assertTrue(first.lines().count() > 500, "a busy run: " + first.lines().count() + " lines");
        assertEquals(first, second);
        assertNotEquals(first, run(1235));
    }
}
