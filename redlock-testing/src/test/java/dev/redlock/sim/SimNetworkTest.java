package dev.redlock.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** The simulated network: order, delays, partitions, resets, node and client faults, pub/sub. */
class SimNetworkTest {
    private final SimScheduler time = new SimScheduler(21);
    private final SimTrace trace = new SimTrace(time, true);
    private final SimNetwork net = new SimNetwork(time, trace);
    private final SimNode node = net.attach(SimNode.create(time, "n1"));
    private final SimClient client = net.client("c1");
    private final SimTransport t = client.transport(node);

    private static Throwable failure(CompletableFuture<?> f) {
        assertTrue(f.isCompletedExceptionally(), "failed: " + f);
        return f.handle((r, e) -> e).join();
    }

    @Test
    void repliesComeBackInOrderWhateverTheDelaysDraw() {
        net.delay(client, node, LinkDelay.uniform(Duration.ZERO, Duration.ofMillis(10)));
        List<Object> replies = new ArrayList<>();
        for (int i = 0; i < 200; i++) t.command("SET", "k", Integer.toString(i), "GET").thenAccept(replies::add);
        time.runUntilIdle();
        List<Object> expected = new ArrayList<>();
        expected.add(null);
        for (int i = 0; i < 199; i++) expected.add(Integer.toString(i));
        assertEquals(expected, replies, "each SET saw the one sent before it, and its reply came back in turn");
    }

    @Test
    void aReplyArrivesAfterTheRoundTripAndErrorsFailTheFutureWithTheirText() {
        net.delay(client, node, LinkDelay.fixed(Duration.ofMillis(3)));
        CompletableFuture<Object> f = t.command("SET", "k", "v");
        time.runFor(Duration.ofMillis(5));
        assertFalse(f.isDone());
        time.runFor(Duration.ofMillis(1));
        assertEquals("OK", f.join());
        CompletableFuture<Object> e = t.command("EVALSHA", "ffffffffffffffffffffffffffffffffffffffff", "0");
        time.runUntilIdle();
        assertEquals("NOSCRIPT No matching script. Please use EVAL.", failure(e).getMessage());
        assertInstanceOf(SimRedisException.class, failure(e));
    }

    @Test
    void aPartitionHoldsRequestsUntilHealedAndAOneWayCutLetsThemRunWithoutReplies() {
        net.partition(client, node);
        CompletableFuture<Object> held = t.command("SET", "a", "1");
        time.runFor(Duration.ofSeconds(10));
        assertFalse(held.isDone());
        assertEquals(List.of(), node.keys(), "nothing reached the node");
        net.heal(client, node);
        time.runUntilIdle();
        assertEquals("OK", held.join());
        net.cut(client, node, false, true);
        CompletableFuture<Object> noReply = t.command("SET", "b", "1");
        time.runFor(Duration.ofSeconds(1));
        assertEquals(List.of("a", "b"), node.keys(), "the request ran");
        assertFalse(noReply.isDone(), "its reply is held");
        net.healAll();
        time.runUntilIdle();
        assertEquals("OK", noReply.join());
    }

    @Test
    void aResetFailsWhatIsOutstandingAndAnInFlightRequestMayStillRun() {
        net.delay(client, node, LinkDelay.fixed(Duration.ofMillis(5)));
        List<CompletableFuture<Object>> sent = new ArrayList<>();
        for (int i = 0; i < 40; i++) sent.add(t.command("SET", "k" + i, "v"));
        time.runFor(Duration.ofMillis(1));
        net.reset(client, node);
        for (CompletableFuture<Object> f : sent) assertInstanceOf(SimConnectionException.class, failure(f));
        time.runUntilIdle();
        int ran = node.keys().size();
        assertTrue(ran > 0 && ran < 40, "a seeded coin per in-flight request: " + ran + " of 40 ran");
        long traced = trace.lines().stream().filter(l -> l.contains("in flight: will run")).count();
        assertEquals(ran, traced, "the trace says which ran");
        assertEquals("OK", sendAndRun("SET", "after", "reset"), "the next command opens a new connection");
    }

    private Object sendAndRun(String... args) {
        CompletableFuture<Object> f = t.command(args);
        time.runUntilIdle();
        return f.join();
    }

    @Test
    void aKilledNodeDropsItsConnectionsAndRefusesNewOnesUntilRestarted() {
        CompletableFuture<Object> f = t.command("SET", "a", "1");
        node.kill();
        assertInstanceOf(SimConnectionException.class, failure(f));
        CompletableFuture<Object> refused = t.command("PING");
        time.runUntilIdle();
        assertTrue(failure(refused).getMessage().startsWith("connection refused"));
        assertEquals(List.of(), List.of(net.connections().toArray()));
        node.restart();
        assertEquals("PONG", sendAndRun("PING"));
    }

    @Test
    void aPausedNodeQueuesRequestsAndRunsThemInArrivalOrderOnResume() {
        SimTransport other = net.client("c2").transport(node);
        node.pause();
        CompletableFuture<Object> first = t.command("SET", "k", "first");
        time.runFor(Duration.ofMillis(1));
        CompletableFuture<Object> second = other.command("SET", "k", "second");
        time.runFor(Duration.ofSeconds(30));
        assertFalse(first.isDone() || second.isDone());
        node.resume();
        time.runUntilIdle();
        assertEquals("second", node.command("GET", "k"));
        assertEquals("OK", first.join());
    }

    @Test
    void aPausedClientSendsAndReceivesNothingUntilResumed() {
        CompletableFuture<Object> inFlight = t.command("SET", "a", "1");
        client.pause();
        CompletableFuture<Object> later = t.command("SET", "b", "1");
        time.runFor(Duration.ofSeconds(5));
        assertEquals(List.of("a"), node.keys());
        assertFalse(inFlight.isDone(), "its reply waits for the client");
        client.resume();
        time.runUntilIdle();
        assertEquals("OK", inFlight.join());
        assertEquals("OK", later.join());
    }

    @Test
    void publishedMessagesReachSubscribersThroughTheLinksAndSurviveAReset() {
        List<String> got = new ArrayList<>();
        Consumer<String> listener = got::add;
        CompletableFuture<Void> sub = t.subscribe("wake", listener);
        time.runUntilIdle();
        assertTrue(sub.isDone() && !sub.isCompletedExceptionally());
        assertEquals(1L, node.command("PUBLISH", "wake", "1"));
        assertEquals(List.of("wake", 1L), node.command("PUBSUB", "NUMSUB", "wake"));
        time.runUntilIdle();
        assertEquals(List.of("1"), got);
        for (SimConnection c : net.connections()) c.reset();
        assertEquals(List.of("wake", 0L), node.command("PUBSUB", "NUMSUB", "wake"), "the node saw the connection go");
        time.runFor(SimTransport.RESUBSCRIBE_DELAY.plusMillis(1));
        assertEquals(List.of("wake", 1L), node.command("PUBSUB", "NUMSUB", "wake"), "subscribed again");
        String release = LibraryScripts.source("RELEASE");
        node.command("EVAL", release, "1", "lock", "owner", "wake");
        time.runUntilIdle();
        assertEquals(List.of("1", "1"), got, "the release script woke the waiter");
        t.unsubscribe("wake", listener);
        time.runUntilIdle();
        assertEquals(List.of("wake", 0L), node.command("PUBSUB", "NUMSUB", "wake"));
    }
}
