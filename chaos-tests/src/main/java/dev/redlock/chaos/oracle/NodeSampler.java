package dev.redlock.chaos.oracle;

import dev.redlock.chaos.cluster.ExternalServer;
import dev.redlock.chaos.history.History;
import dev.redlock.chaos.history.NodeSample;
import dev.redlock.testkit.RedisProcess;
import dev.redlock.testkit.Resp;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

/**
 * The ground truth of a run: every {@code interval}, reads which owner value each node holds under the protected
 * lock key, its PTTL and the identity of the process that answered ({@code run_id} and {@code master_replid}),
 * and appends it to the {@link History} as {@link NodeSample}s on the history's clock. The identity tells a restart,
 * a failover or a failback (another process, or another memory: a demoted master's resync keeps its
 * {@code run_id}) from a pause or a lost connection (the same process and memory), however short the restart was: the checkers need that to know whether a node could have forgotten a value between two readings.
 *
 * <p>It reads each node straight from its redis-server port (the proxies' upstream), never through a proxy, so the
 * faults do not touch it; one thread and one connection per node, one atomic script per reading ({@code GET},
 * {@code PTTL}, {@code INFO server} searched with a plain {@code string.find}): about 200 small scripts per second
 * per node, nothing a redis-server or the scenario notices. A
 * node that is down or paused gives unanswered samples (nothing known), and is read again as soon as it answers.
 * A sampler thread that dies records a {@linkplain History#samplerError sampler error}, which makes the ground-truth
 * checkers UNKNOWN rather than passing.
 *
 * <p>Not thread-safe: start once, close once.
 */
public final class NodeSampler implements AutoCloseable {
    /**
     * The reading: {value or "", pttl, identity}, atomically (INFO is allowed in a read-only script on 6.2 and 7.x).
     * The identity is {@code run_id:master_replid}: the replication id changes on a promotion and on a failback
     * (a demoted master's full resync replaces its memory under the same {@code run_id}).
     */
    static final String SCRIPT = "local v = redis.call('GET', KEYS[1]) if not v then v = '' end "
            + "local info = redis.call('INFO', 'server') local i = string.find(info, 'run_id:', 1, true) "
            + "local id = '' if i then id = string.sub(info, i + 7, i + 46) end "
            + "local repl = redis.call('INFO', 'replication') local j = string.find(repl, 'master_replid:', 1, true) "
            + "if j then id = id .. ':' .. string.sub(repl, j + 14, j + 53) end "
            + "return {v, redis.call('PTTL', KEYS[1]), id}";
    /** How long one reading may wait for a node (a paused node answers when it wakes up). */
    private static final int READ_TIMEOUT_MS = 5_000;

    private final IntFunction<RedisProcess> node;
    private final int count;
    private final String key;
    private final History history;
    private final long intervalNanos;
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean stopped;

    /**
     * @param nodes    the process the clients reach as node i, for i in 0..count-1; asked before every reading (a
     *                 restarted node keeps its port; after a failover the node's connection moves to the new process)
     * @param count    how many nodes
     * @param key      the lock key to watch
     * @param interval time between two readings of one node
     */
    public NodeSampler(IntFunction<RedisProcess> nodes, int count, String key, History history, Duration interval) {
        this.node = nodes;
        this.count = count;
        this.key = key;
        this.history = history;
        this.intervalNanos = interval.toNanos();
    }

    /** Starts one daemon thread per node. */
    public NodeSampler start() {
        for (int i = 0; i < count; i++) {
            int n = i;
            Thread t = new Thread(() -> loop(n), "ground-truth-n" + n);
            t.setDaemon(true);
            t.setUncaughtExceptionHandler((th, e) -> history.samplerError(th.getName() + " died: " + e));
            threads.add(t);
            t.start();
        }
        return this;
    }

    private void loop(int n) {
        Probe probe = null;
        RedisProcess reading = null;
        long next = History.now();
        while (!stopped) {
            long sent = History.now();
            try {
                RedisProcess target = node.apply(n);
                if (probe != null && target != reading) {   // failed over: read the process the clients reach now
                    probe.close();
                    probe = null;
                }
                if (probe == null) {
                    reading = target;
                    probe = Probe.open(target);
                }
                String[] r = probe.read(key);
                history.sample(new NodeSample(n, sent, History.now(), true, r[0], Long.parseLong(r[1]), r[2]));
            } catch (IOException | RuntimeException e) {
                history.sample(NodeSample.unanswered(n, sent));
                if (probe != null) probe.close();
                probe = null;
            }
            next += intervalNanos;
            long wait = next - History.now();
            if (wait < 0) {
                next = History.now();   // fell behind (a paused node): no burst of catch-up readings
            } else {
                try {
                    TimeUnit.NANOSECONDS.sleep(wait);
                } catch (InterruptedException e) {
                    break;
                }
            }
        }
        if (probe != null) probe.close();
    }

    /** Stops every thread (waits up to a second each; a thread blocked on a paused node is left to its timeout). */
    @Override
    public void close() {
        stopped = true;
        for (Thread t : threads) {
            try {
                t.join(1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** One node's reader: a kept-open connection to an embedded node, or a command per reading for an external one. */
    private interface Probe {
        String[] read(String key) throws IOException;

        void close();

        static Probe open(RedisProcess n) throws IOException {
            if (n instanceof ExternalServer ext) {
                return new Probe() {
                    @Override
                    public String[] read(String key) throws IOException {
                        return split(ext.command("EVAL", SCRIPT, "1", key));
                    }

                    @Override
                    public void close() {
                        // a connection per reading
                    }
                };
            }
            Socket s = new Socket();
            try {
                s.connect(new InetSocketAddress("127.0.0.1", n.port()), 200);
                s.setSoTimeout(READ_TIMEOUT_MS);
                s.setTcpNoDelay(true);
            } catch (IOException e) {
                s.close();
                throw e;
            }
            OutputStream out = s.getOutputStream();
            InputStream in = new BufferedInputStream(s.getInputStream());
            return new Probe() {
                @Override
                public String[] read(String key) throws IOException {
                    Resp.write(out, "EVAL", SCRIPT, "1", key);
                    return split(Resp.read(in));
                }

                @Override
                public void close() {
                    try {
                        s.close();
                    } catch (IOException ignored) {
                        // closing a dead connection
                    }
                }
            };
        }

        /** "value\npttl\nrun_id:master_replid" (Resp flattens arrays; an empty value is an empty first line). */
        private static String[] split(String reply) throws IOException {
            if (reply.startsWith("ERR:")) throw new IOException(reply);
            int id = reply.lastIndexOf('\n');
            int ttl = id < 0 ? -1 : reply.lastIndexOf('\n', id - 1);
            if (ttl < 0 || id - ttl < 2 || reply.length() - id < 41) throw new IOException("unexpected reading: " + reply);
            return new String[] {reply.substring(0, ttl), reply.substring(ttl + 1, id), reply.substring(id + 1)};
        }
    }
}
