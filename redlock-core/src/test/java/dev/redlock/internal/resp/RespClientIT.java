package dev.redlock.internal.resp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.testkit.Ports;
import dev.redlock.testkit.RedisNode;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The library's RESP client against a real redis-server: reply types, ordering, SELECT, run_id binding, stalls. */
class RespClientIT {
    private static RedisNode node;

    @BeforeAll
    static void start() {
        node = RedisNode.start();
    }

    @AfterAll
    static void stop() {
        if (node != null) node.close();
    }

    private static RespEndpoint.Builder endpoint() {
        return RespEndpoint.builder("127.0.0.1", node.port());
    }

    private static RespClient connected(RespEndpoint e) throws Exception {
        RespClient c = RespClient.create(e, ConnectionCheck.NONE);
        c.connect().get(10, TimeUnit.SECONDS);
        return c;
    }

    private static Object get(CompletableFuture<Object> f) throws Exception {
        return f.get(10, TimeUnit.SECONDS);
    }

    private static Throwable failure(CompletableFuture<Object> f) throws InterruptedException {
        try {
            f.get(10, TimeUnit.SECONDS);
            throw new AssertionError("expected a failure, got a reply");
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (TimeoutException e) {
            throw new AssertionError("no outcome within 10 s");
        }
    }

    @Test
    void replyTypesAreLongStringListAndNull() throws Exception {
        try (RespClient c = connected(endpoint().build())) {
            assertEquals("OK", get(c.command("SET", "k", "välue")));                 // simple string
            assertEquals("välue", get(c.command("GET", "k")));                        // bulk string, UTF-8
            assertEquals(1L, get(c.command("DEL", "k")));                             // integer
            assertNull(get(c.command("GET", "k")));                                   // nil
            assertEquals(List.of(1L, "two", List.of(3L, "x"), 0L),                    // nested array
                    get(c.command("EVAL", "return {1, 'two', {3, 'x'}, 0}", "0")));
            assertEquals("", get(c.command("ECHO", "")));
            assertEquals(42L, get(c.command("EVAL", "return tonumber(ARGV[1])", "0", 42)));   // a Number argument
        }
    }

    @Test
    void aRedisErrorFailsTheCommandWithItsTextAndTheConnectionGoesOn() throws Exception {
        try (RespClient c = connected(endpoint().build())) {
            c.command("SET", "s", "x");
            Throwable e = failure(c.command("HGET", "s", "f"));
            assertInstanceOf(RedisErrorException.class, e);
            assertTrue(e.getMessage().startsWith("WRONGTYPE"), e.getMessage());
            assertTrue(((RedisErrorException) failure(c.command("EVALSHA", "0".repeat(40), "0"))).isNoScript());
            assertEquals("PONG", get(c.command("PING")));
            c.command("DEL", "s");
        }
    }

    @Test
    void concurrentCallersGetTheirOwnRepliesInOrder() throws Exception {
        try (RespClient c = connected(endpoint().build())) {
            List<Thread> threads = new ArrayList<>();
            List<String> wrong = Collections.synchronizedList(new ArrayList<>());
            for (int t = 0; t < 8; t++) {
                int id = t;
                threads.add(new Thread(() -> {
                    List<CompletableFuture<Object>> fs = new ArrayList<>();
                    for (int i = 0; i < 500; i++) fs.add(c.command("ECHO", id + ":" + i));
                    for (int i = 0; i < 500; i++) {
                        Object r = fs.get(i).join();
                        if (!(id + ":" + i).equals(r)) wrong.add(id + ":" + i + " -> " + r);
                    }
                }));
            }
            threads.forEach(Thread::start);
            for (Thread t : threads) t.join(30_000);
            assertEquals(List.of(), wrong);
        }
    }

    @Test
    void selectPicksTheDatabaseOnEveryConnection() throws Exception {
        try (RespClient db3 = connected(endpoint().database(3).build());
             RespClient db0 = connected(endpoint().build())) {
            get(db3.command("SET", "in-db3", "yes"));
            assertNull(get(db0.command("GET", "in-db3")));
            assertEquals("yes", get(db3.command("GET", "in-db3")));
            get(db3.command("DEL", "in-db3"));
        }
    }

    /** The handshake's INFO server is learned per connection: after the node restarted, the new process's run_id. */
    @Test
    void theHandshakeLearnsTheRunIdOfEachNewConnection() throws Exception {
        RedisNode n = RedisNode.start();
        try (RespClient c = connected(RespEndpoint.builder("127.0.0.1", n.port()).build())) {
            String before = n.runId();
            assertEquals(before, c.runId());
            n.killAndRestart();
            String after = n.runId();
            assertNotEquals(before, after);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!after.equals(c.runId()) && System.nanoTime() < deadline) {
                try {
                    get(c.command("PING"));                // the old connection's close, the reconnect
                } catch (ExecutionException e) {
                    Thread.sleep(20);
                }
            }
            assertEquals(after, c.runId());
        } finally {
            n.close();
        }
    }

    /** Guard: a connection with commands outstanding and silent for the reply window is closed and reconnected. */
    @Test
    void aSilentConnectionIsClosedAfterTheReplyWindowAndReconnects() throws Exception {
        RedisNode n = RedisNode.start();
        try (RespClient c = connected(RespEndpoint.builder("127.0.0.1", n.port())
                .replyWindow(Duration.ofMillis(300)).connectTimeout(Duration.ofMillis(500)).build())) {
            n.pause();
            Throwable e = failure(c.command("PING"));
            assertInstanceOf(RedisReplyTimeoutException.class, e);
            assertTrue(e.getMessage().contains("no reply for"), e.getMessage());
            n.resume();
            Object pong = null;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (pong == null && System.nanoTime() < deadline) {
                try {
                    pong = get(c.command("PING"));
                } catch (ExecutionException x) {
                    Thread.sleep(20);
                }
            }
            assertEquals("PONG", pong);
        } finally {
            n.resume();
            n.close();
        }
    }

    /**
     * Guard: close waits for the replies of commands already written (closing with replies unread resets the
     * connection, and a node may then drop a command it had not read yet, a release say).
     */
    @Test
    void closeWaitsForTheRepliesOfCommandsAlreadySent() throws Exception {
        RedisNode n = RedisNode.start();
        try {
            RespClient c = connected(RespEndpoint.builder("127.0.0.1", n.port()).connectTimeout(Duration.ofSeconds(5)).build());
            n.pause();
            CompletableFuture<Object> set = c.command("SET", "sent-before-close", "v");
            Thread resume = new Thread(() -> {
                try {
                    Thread.sleep(300);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                n.resume();
            });
            resume.start();
            c.close();                                    // returns once the SET's reply is in
            resume.join();
            assertEquals("OK", set.getNow("not completed when close() returned"));
            assertEquals("v", n.command("GET", "sent-before-close"));
            assertInstanceOf(RedisConnectionException.class, failure(c.command("PING")), "closed for new commands");
        } finally {
            n.resume();
            n.close();
        }
    }

    /**
     * Guard: a command sent while the link waits out its backoff starts a reconnect at once (reconnect on use), so a
     * node that came back serves the very next command instead of costing votes until the backoff ends (up to 1 s).
     */
    @Test
    void aCommandToANodeThatCameBackReconnectsAtOnceAheadOfTheBackoff() throws Exception {
        RedisNode n = RedisNode.start();
        try (RespClient c = connected(RespEndpoint.builder("127.0.0.1", n.port()).build())) {
            n.kill();
            Thread.sleep(1500);                          // refused attempts: the backoff has grown to ~1 s
            n.restart();
            assertEquals("PONG", get(c.command("PING")), "the first command after the node came back");
        } finally {
            n.close();
        }
    }

    @Test
    void aNodeThatIsDownFailsCommandsFastWithTheReason() throws Exception {
        int port = Ports.free();
        try (RespClient c = RespClient.create(RespEndpoint.builder("127.0.0.1", port).build(), ConnectionCheck.NONE)) {
            Throwable e = failure(c.command("PING"));
            assertInstanceOf(RedisConnectionException.class, e);
            assertTrue(e.getMessage().contains("cannot connect"), e.getMessage());
        }
    }

    @Test
    void subscribersGetMessagesOnTheirOwnConnection() throws Exception {
        try (RespClient c = connected(endpoint().build())) {
            CompletableFuture<String> got = new CompletableFuture<>();
            c.subscribe("chan", got::complete).get(10, TimeUnit.SECONDS);
            assertEquals(1L, get(c.command("PUBLISH", "chan", "hello")));
            assertEquals("hello", got.get(10, TimeUnit.SECONDS));
            assertEquals("PONG", get(c.command("PING")), "the command connection is not in subscriber mode");
        }
    }

    @Test
    void pipelinedRepliesReachTheirOwnCommandsReader() throws Exception {
        // commands with and without a reader, written back to back from this thread (one read brings many replies):
        // each reply is built as its own command asks
        FlatArrayReader sum = (n, ints, strings) -> {
            long total = 0;
            for (int i = 0; i < n; i++) if (strings[i] == null) total += ints[i];
            return "sum " + total;
        };
        try (RespClient c = connected(endpoint().build())) {
            List<CompletableFuture<Object>> replies = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                Object[] args = {"EVAL", "return {ARGV[1], 2, 'x'}", "0", Integer.toString(i)};
                replies.add(i % 3 == 0 ? c.command(args) : c.send(new RespCommand(args) {
                    @Override
                    protected FlatArrayReader flatArrayReader() {
                        return sum;
                    }
                }));
            }
            for (int i = 0; i < 200; i++) {
                // a Lua string stays a string: {ARGV[1], 2, 'x'} is {"i", 2, "x"}
                Object expected = i % 3 == 0 ? List.of(Integer.toString(i), 2L, "x") : "sum 2";
                assertEquals(expected, get(replies.get(i)), "reply " + i);
            }
        }
    }

    @Test
    void theDecoderWaitsForRepliesSplitAcrossReads() {
        ByteBuf whole = Unpooled.copiedBuffer("*2\r\n$3\r\nabc\r\n:-12\r\n",
                StandardCharsets.UTF_8);
        for (int cut = 0; cut < whole.readableBytes(); cut++) {
            ByteBuf part = whole.slice(0, cut);
            Object r = RespDecoder.parse(part);
            assertTrue(!(r instanceof List<?>), "a reply was parsed from " + cut + " bytes");
        }
        assertEquals(List.of("abc", -12L), RespDecoder.parse(whole));
        whole.release();
    }
}
