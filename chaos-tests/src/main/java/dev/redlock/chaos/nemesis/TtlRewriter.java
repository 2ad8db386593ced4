package dev.redlock.chaos.nemesis;

import dev.redlock.testkit.RedisProcess;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import java.util.function.LongUnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The clock simulation of {@link ClockMode#SIMULATED_TTL}: rewrites the TTLs of a node's lock keys (those under the
 * clients' key prefix, not the library's {@code __} bookkeeping keys nor the warm-up key) as a jumped or fast clock
 * would have them. Acts on the real node through {@code PTTL}/{@code PEXPIRE}; it does not move the node's clock.
 */
final class TtlRewriter {
    private static final Logger log = LoggerFactory.getLogger(TtlRewriter.class);

    private final IntFunction<RedisProcess> nodes;
    private final String keyPrefix;

    TtlRewriter(IntFunction<RedisProcess> nodes, String keyPrefix) {
        this.nodes = nodes;
        this.keyPrefix = keyPrefix;
    }

    /** The lock keys on {@code n}. */
    List<String> lockKeys(RedisProcess n) {
        List<String> out = new ArrayList<>();
        for (String k : n.keys(keyPrefix + "*")) {
            if (!k.startsWith(keyPrefix + "__") && !k.startsWith(keyPrefix + "warmup")) out.add(k);
        }
        return out;
    }

    /** Every lock key on {@code node} with a TTL gets {@code newTtl(pttl)}. */
    void shorten(int node, LongUnaryOperator newTtl) {
        RedisProcess n = nodes.apply(node);
        for (String k : lockKeys(n)) {
            long pttl = Long.parseLong(n.command("PTTL", k));
            if (pttl > 0) n.command("PEXPIRE", k, Long.toString(newTtl.applyAsLong(pttl)));
        }
    }

    /** Starts a daemon thread giving every new lock value on {@code node} the TTL {@code pttl / (1 + rate)}. */
    Watcher watch(int node, double rate) {
        Map<String, String> seen = new HashMap<>();
        Thread t = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    RedisProcess n = nodes.apply(node);
                    if (n.isRunning() && !n.isPaused()) {
                        for (String k : lockKeys(n)) {
                            String v = n.command("GET", k);
                            if (v.isEmpty() || v.equals(seen.get(k))) continue;
                            seen.put(k, v);
                            long pttl = Long.parseLong(n.command("PTTL", k));
                            if (pttl > 0) n.command("PEXPIRE", k, Long.toString(Math.max(1, (long) (pttl / (1 + rate)))));
                        }
                    }
                    Thread.sleep(2);
                } catch (InterruptedException e) {
                    return;
                } catch (RuntimeException e) {
                    log.debug("fast-clock watcher", e);
                }
            }
        }, "fast-clock-n" + node);
        t.setDaemon(true);
        t.start();
        return new Watcher(t);
    }

    /** A running fast-clock watcher; {@link #stop()} ends it. */
    static final class Watcher {
        private final Thread thread;

        private Watcher(Thread thread) {
            this.thread = thread;
        }

        void stop() throws InterruptedException {
            thread.interrupt();
            thread.join(2000);
        }
    }
}
