package dev.redlock.sim.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.Lease;
import dev.redlock.LockUnavailableException;
import dev.redlock.Preflight;
import dev.redlock.Redlock;
import dev.redlock.RedlockConfig;
import dev.redlock.internal.RedlockInternals;
import dev.redlock.internal.Seams;
import dev.redlock.sim.LinkDelay;
import dev.redlock.sim.SimClient;
import dev.redlock.sim.SimNetwork;
import dev.redlock.sim.SimNode;
import dev.redlock.sim.SimScheduler;
import dev.redlock.sim.SimTransport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/**
 * The client's decisions on virtual time, exactly (one thread, no processes, milliseconds each): the real client
 * over three simulated nodes with a fixed 1 ms one-way delay, so every round trip is 2 ms and every validity is
 * known to the nanosecond.
 */
class DecisionCoreTest {
    private static final Duration TTL = Duration.ofSeconds(1);
    private static final long RTT = 2_000_000;
    private static final long DRIFT = (long) (TTL.toNanos() * 0.01) + 2_000_000;

    private final SimScheduler time = new SimScheduler(5);
    private final SimNetwork net = new SimNetwork(time);
    private final SimClient app = net.client("app");
    private final List<SimNode> nodes = new ArrayList<>();
    private final Redlock redlock;

    DecisionCoreTest() {
        net.defaultDelay(LinkDelay.fixed(Duration.ofMillis(1)));
        for (int i = 0; i < 3; i++) {
            nodes.add(net.attach(SimNode.builder(time, "n" + i).epochMicros(Plan.EPOCH_US).build()));
        }
        redlock = client(app);
        time.runFor(Duration.ofMillis(10));
    }

    /** A client of the three nodes, with its own token hints and clock watch. */
    private Redlock client(SimClient host) {
        List<SimTransport> transports = new ArrayList<>();
        List<String> uris = new ArrayList<>();
        for (SimNode n : nodes) {
            transports.add(host.transport(n));
            uris.add("redis://" + n.name() + ":6379");
        }
        RedlockConfig config = RedlockConfig.builder().nodes(uris).nodeTimeout(Duration.ofMillis(50)).retryCount(0)
                .restartQuarantine(Duration.ZERO).preflight(Preflight.OFF).build();
        return RedlockInternals.create(config, transports, Seams.builder().ticker(time::nanoTime)
                .wallMicros(() -> Plan.EPOCH_US + time.nanoTime() / 1000).scheduler(time).events(time)
                .random(new Random(5)).build());
    }

    private <T> T await(CompletableFuture<T> f) {
        while (!f.isDone()) time.runFor(Duration.ofMillis(1));
        return f.join();
    }

    private int holding(String resource) {
        int n = 0;
        for (SimNode node : nodes) if (node.isRunning() && node.peek("redlock:" + resource) != null) n++;
        return n;
    }

    @Test
    void aQuorumOfGrantsWinsAndValidityIsTheTtlLessTheRoundAndTheDrift() {
        net.partition(app, nodes.get(2));
        long start = time.nanoTime();
        Lease lease = await(redlock.acquireAsync("r", TTL));
        assertEquals(TTL.toNanos() - RTT - DRIFT, lease.remainingValidity().toNanos() + (time.nanoTime() - start - RTT));
        assertEquals(2, holding("r"));
        time.runFor(Duration.ofNanos(lease.remainingValidity().toNanos() - 1));
        assertTrue(lease.isValid(), "valid until the last nanosecond of its validity");
        time.runFor(Duration.ofNanos(1));
        assertFalse(lease.isValid());
        assertTrue(lease.whenLost().isDone(), "the loss is reported at the end of the validity");
    }

    @Test
    void oneGrantOfThreeIsNoQuorumAndItsGrantIsReleased() {
        net.partition(app, nodes.get(1));
        net.partition(app, nodes.get(2));
        CompletableFuture<Lease> f = redlock.acquireAsync("r", TTL);
        while (!f.isDone()) time.runFor(Duration.ofMillis(1));
        CompletionException e = org.junit.jupiter.api.Assertions.assertThrows(CompletionException.class, f::join);
        assertInstanceOf(LockUnavailableException.class, e.getCause());
        time.runFor(Duration.ofMillis(10));
        assertEquals(0, holding("r"), "the failed round's grant on n0 was released");
    }

    @Test
    void aGrantThatArrivesAfterAFailedRoundIsReleased() {
        net.partition(app, nodes.get(1));
        net.delay(app, nodes.get(2), LinkDelay.fixed(Duration.ofMillis(40)));   // its grant comes back after the 50 ms timeout
        CompletableFuture<Lease> f = redlock.acquireAsync("r", TTL);
        while (!f.isDone()) time.runFor(Duration.ofMillis(1));
        assertTrue(f.isCompletedExceptionally());
        time.runFor(Duration.ofMillis(200));
        assertNull(nodes.get(2).peek("redlock:r"), "the late grant was released");
        assertEquals(0, holding("r"));
    }

    @Test
    void anExtensionCountsItsValidityFromItsOwnStartNotFromTheOldDeadline() {
        Lease lease = await(redlock.acquireAsync("r", TTL));
        time.runFor(Duration.ofMillis(500));
        long start = time.nanoTime();
        assertTrue(await(RedlockInternals.extendAsync(lease, TTL)));
        long elapsed = time.nanoTime() - start;
        assertEquals(TTL.toNanos() - DRIFT - elapsed, lease.remainingValidity().toNanos());
    }

    @Test
    void theWatchdogLosesTheLeaseWhenAQuorumIsGoneAndNoLaterThanItsValidity() {
        Lease lease = await(redlock.acquireAsync("r", TTL)).keepAlive();
        time.runFor(Duration.ofSeconds(3));
        assertTrue(lease.isValid(), "extended every third of the TTL");
        net.partition(app, nodes.get(1));
        net.partition(app, nodes.get(2));
        long left = lease.remainingValidity().toNanos();
        time.runFor(Duration.ofNanos(left));
        assertFalse(lease.isValid());
        assertTrue(lease.whenLost().isDone(), "lost no later than the end of its validity");
    }

    @Test
    void tokensIncreaseAcrossHoldersOnOneRoundAndThroughANodesAmnesia() {
        Lease first = await(redlock.acquireAsync("r", TTL));
        await(first.releaseAsync());
        nodes.get(0).kill();
        nodes.get(0).restart();   // memory lost: its fence reads its clock floor
        Lease second = await(redlock.acquireAsync("r", TTL));
        assertTrue(second.fencingToken() > first.fencingToken(), second.fencingToken() + " > " + first.fencingToken());
        await(second.releaseAsync());
        nodes.get(1).evict("redlock:__fence:r");   // a lost fence entry
        Lease third = await(redlock.acquireAsync("r", TTL));
        assertTrue(third.fencingToken() > second.fencingToken());
    }

    /**
     * A one-round token is only as safe as the nodes that wrote it: a node whose clock is behind grants but does not
     * write a guess beyond its clock plus the cap, so a quorum of grants of which one did not write the guess must
     * take the second phase. Otherwise the guess sits on one node, and a client without hints whose quorum misses
     * that node, within the guess's lead, draws a smaller token.
     */
    @Test
    void aGuessedTokenNotWrittenByEveryCountedGrantTakesTheSecondPhase() {
        nodes.get(2).clockOffset(Duration.ofMillis(-200));   // beyond the 100 ms cap: n2 grants, keeps its fence
        Lease first = await(redlock.acquireAsync("r", TTL));    // no hint yet: two phases
        await(first.releaseAsync());
        net.partition(app, nodes.get(0));                       // the grants: n1 (writes the guess) and n2 (does not)
        Lease second = await(redlock.acquireAsync("r", TTL));
        second.releaseAsync();
        time.runFor(Duration.ofMillis(5));                      // released on n1 and n2, well within the guess's lead
        assertNull(nodes.get(1).peek("redlock:r"), "released on n1");
        SimClient other = net.client("other");
        net.partition(other, nodes.get(1));                     // the only node that holds the guess
        Lease third = await(client(other).acquireAsync("r", TTL));
        assertTrue(third.fencingToken() > second.fencingToken(), third.fencingToken() + " > " + second.fencingToken());
    }
}
