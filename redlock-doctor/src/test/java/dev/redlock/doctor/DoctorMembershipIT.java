package dev.redlock.doctor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.Redlock;
import dev.redlock.RedlockConfig;
import dev.redlock.testkit.RedisNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The doctor reads the whole marker ({@code HGETALL}): its identity ({@code run} and {@code rid}, compared with the
 * server's {@code run_id} and {@code master_replid}) and the membership records; given a node list that differs from
 * the one the nodes served recently, it says so on each such node and names the safe procedure.
 */
class DoctorMembershipIT {
    private final List<RedisNode> nodes = new ArrayList<>();

    @BeforeEach
    void start() {
        for (int i = 0; i < 4; i++) nodes.add(RedisNode.start());
    }

    @AfterEach
    void stop() {
        nodes.forEach(RedisNode::close);
    }

    private List<String> list(int size) {
        return IntStream.range(0, size).mapToObj(i -> "redis://127.0.0.1:" + nodes.get(i).port() + "?name=n" + i).toList();
    }

    private static DoctorReport examine(List<String> uris) {
        return Doctor.builder().nodes(uris).duration(Duration.ofSeconds(1)).build().examine();
    }

    private static List<Finding> membership(NodeReport n) {
        return n.findings().stream().filter(f -> f.check().equals("membership")).toList();
    }

    @Test
    void aListThatDiffersFromWhatTheNodesServedIsNamedWithTheProcedure() {
        RedlockConfig old = RedlockConfig.builder().nodes(list(3)).restartQuarantine(Duration.ofSeconds(10)).build();
        try (Redlock client = Redlock.create(old)) {
            client.markNodesFresh();
            client.acquire("job", Duration.ofSeconds(1)).release();   // records the 3-node list on nodes 0-2
        }

        DoctorReport grown = examine(list(4));
        for (int i = 0; i < 3; i++) {
            List<Finding> found = membership(grown.nodes().get(i));
            assertEquals(1, found.size(), grown.toText());
            String m = found.get(0).message();
            assertEquals(Finding.Severity.WARN, found.get(0).severity());
            assertTrue(m.contains("3 nodes (quorum 2)") && m.contains("4 nodes") && m.contains("previousNodes")
                    && m.contains("Changing the node list") && m.contains("MembershipConflictException"), m);
        }
        assertTrue(membership(grown.nodes().get(3)).isEmpty(), "node 3 never served the old list");
        assertTrue(grown.toText().contains("membership record: node list "), grown.toText());
        assertTrue(grown.toJson().contains("\"records\""), grown.toJson());

        DoctorReport same = examine(list(3));
        assertTrue(same.nodes().stream().allMatch(n -> membership(n).isEmpty()), same.toText());
        MarkerState marker = same.nodes().get(0).marker();
        assertEquals(MarkerState.State.FRESH, marker.state(), marker.detail());
        assertEquals(nodes.get(0).info("replication", "master_replid"), marker.replicationId());
        assertEquals(1, marker.standingRecords().size(), marker.records().toString());
    }

    @Test
    void aMarkerOfAnotherReplicationHistoryIsAnotherIdentity() {
        RedisNode n = nodes.get(0);
        n.command("HSET", "redlock:__node", "run", n.runId(), "rid", "0".repeat(40), "born", "0", "hw", "0", "q", "0");
        MarkerState marker = examine(list(1)).nodes().get(0).marker();
        assertEquals(MarkerState.State.OTHER_IDENTITY, marker.state(), marker.detail());
        assertTrue(marker.detail().contains("replication history"), marker.detail());
    }
}
