package dev.redlock;

import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Wakes waiting acquisitions when the holder releases, instead of letting them poll blindly.
 *
 * <p>The RELEASE script of a held lease publishes on {@code keyPrefix + "__released:" + resource} on every node
 * where it deleted the lock; the message is the number of instances subscribed there. While some acquisition of
 * this instance waits for a resource, the instance is subscribed to that channel on {@code N - quorum + 1} nodes
 * (with at most {@code N - quorum} nodes down, one of them still delivers). The retry timer ({@code retryDelay ±
 * retryJitter}) stays armed as the fallback: a message can be missed (node down, subscription not yet active, a
 * lock that expired by TTL publishes nothing), and then the waiter simply polls as before.
 *
 * <p>A message does not send every waiter of every instance into a full round at once (that herd splits the vote
 * and costs each loser a round). Each waiter pauses two recent round durations plus a random share of (waiting
 * instances × one), then probes the node the message came from with one {@code EXISTS}: if the lock
 * is there again (someone was faster) it keeps waiting, else it runs its round. The probe and the message are only hints: a
 * woken waiter runs a normal quorum round, so a spurious, forged or stale hint costs a round trip or a fallback
 * delay, never safety. Subscriptions stay for {@link #LINGER_NANOS} after their last waiter left, so a contended
 * resource does not subscribe and unsubscribe on every handoff. Thread-safe.
 */
final class ReleaseSignals {
    static final long LINGER_NANOS = TimeUnit.SECONDS.toNanos(5);
    private static final long MIN_PAUSE_NANOS = TimeUnit.MICROSECONDS.toNanos(20);

    private final RedlockContext ctx;
    private final Map<String, Channel> channels = new HashMap<>();   // guarded by this
    private boolean closed;                                           // guarded by this

    ReleaseSignals(RedlockContext ctx) {
        this.ctx = ctx;
    }

    /**
     * How many release messages this instance has seen for {@code resource}, or -1 when it is not subscribed. Read
     * it before a round and pass it to {@link #await}: a message that arrived while the round ran (the round may
     * have been refused by a node whose release had not run yet) is then not lost.
     */
    synchronized long generation(String resource) {
        Channel ch = channels.get(resource);
        return ch == null ? -1 : ch.generation;
    }

    /**
     * Runs {@code next} once: after a release message for {@code resource} (see the class comment), or after
     * {@code fallbackNanos}, whichever comes first; soon when a message arrived since {@code seenGeneration}.
     */
    void await(String resource, long seenGeneration, long fallbackNanos, Runnable next) {
        Waiter w;
        Channel ch;
        boolean subscribe = false;
        boolean missed = false;
        synchronized (this) {
            if (closed) {
                ch = null;
            } else {
                ch = channels.get(resource);
                if (ch == null) {
                    ch = new Channel(resource);
                    channels.put(resource, ch);
                    subscribe = true;
                } else {
                    missed = seenGeneration >= 0 && ch.generation != seenGeneration;
                }
                if (ch.linger != null) {
                    ch.linger.cancel(false);
                    ch.linger = null;
                }
            }
            w = new Waiter(next, ch);
            if (ch != null) ch.waiters.add(w);
        }
        try {
            w.fallback = ctx.scheduler().schedule(w::fire, fallbackNanos, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {   // closing: run the round now, it will fail fast
            w.fire();
            return;
        }
        if (subscribe) ch.subscribe();
        if (missed) wake(w, 1, ch.lastNode);
    }

    /** Number of resources currently subscribed (for tests). */
    synchronized int subscribedResources() {
        return channels.size();
    }

    void close() {
        Map<String, Channel> all;
        synchronized (this) {
            closed = true;
            all = new HashMap<>(channels);
            channels.clear();
        }
        for (Channel ch : all.values()) ch.unsubscribe();
    }

    /**
     * After a pause of two rounds plus a random share of (waiting instances x one round), probe {@code node} (or
     * run the round at once when node < 0). The fixed part of the pause leaves a releaser that comes straight
     * back (a worker looping over one lock) to re-acquire uncontested; the probes then find the lock held and
     * cost one EXISTS each instead of a split vote. A holder that does not come back hands over ~2 rounds later.
     */
    private void wake(Waiter w, int waitingInstances, int node) {
        long round = ctx.roundEstimateNanos();
        long spread = Math.max(1, waitingInstances) * round;
        long pause = spread <= 0 ? 0 : (node < 0 ? 0 : 2 * round) + ThreadLocalRandom.current().nextLong(spread);
        if (node >= 0 && !w.pending.compareAndSet(false, true)) return;   // one probe per waiter at a time
        Runnable go = node < 0 ? w::fire : () -> w.probe(node);
        if (pause < MIN_PAUSE_NANOS) {
            go.run();
            return;
        }
        try {
            ctx.scheduler().schedule(go, pause, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            w.fire();
        }
    }

    private final class Waiter {
        private final Runnable next;
        private final Channel channel;
        private final AtomicBoolean fired = new AtomicBoolean();
        private final AtomicBoolean pending = new AtomicBoolean();   // a probe is scheduled or running
        private volatile ScheduledFuture<?> fallback;

        Waiter(Runnable next, Channel channel) {
            this.next = next;
            this.channel = channel;
        }

        /** One EXISTS on the node that announced the release: still free there, run the round; else keep waiting. */
        void probe(int node) {
            if (fired.get()) return;
            ctx.node(node).exists(ctx.lockKey(channel.resource)).whenComplete((held, e) -> {
                pending.set(false);
                if (e != null || !Boolean.TRUE.equals(held)) fire();
            });
        }

        void fire() {
            if (!fired.compareAndSet(false, true)) return;
            ScheduledFuture<?> f = fallback;
            if (f != null) f.cancel(false);
            if (channel != null) channel.left(this);
            next.run();
        }
    }

    private final class Channel {
        private final String resource;
        private final String name;
        private final Set<Waiter> waiters = new LinkedHashSet<>();   // guarded by ReleaseSignals.this
        private final int[] listenerIds;                               // by node, -1 = none; guarded by ReleaseSignals.this
        private ScheduledFuture<?> linger;                            // guarded by ReleaseSignals.this
        private boolean dropped;                                       // guarded by ReleaseSignals.this
        private long generation;                                       // guarded by ReleaseSignals.this
        private volatile int lastNode = -1;                            // node of the last message

        Channel(String resource) {
            this.resource = resource;
            this.name = ctx.releasedChannel(resource);
            this.listenerIds = new int[ctx.nodes().size()];
            Arrays.fill(listenerIds, -1);
        }

        /** Subscribes on N - quorum + 1 nodes, starting at one picked by the resource's hash. */
        void subscribe() {
            int n = ctx.nodes().size();
            int count = n - ctx.config().quorum() + 1;
            int first = Math.floorMod(resource.hashCode(), n);
            CompletableFuture<?>[] subs = new CompletableFuture<?>[count];
            for (int k = 0; k < count; k++) {
                final int node = (first + k) % n;
                subs[k] = ctx.node(node).subscribe(name, payload -> message(node, payload)).thenAccept(id -> {
                    boolean drop;
                    synchronized (ReleaseSignals.this) {
                        drop = dropped;
                        if (!drop) listenerIds[node] = id;
                    }
                    if (drop) ctx.node(node).unsubscribe(name, id);
                });
            }
            // once subscribed (or every attempt ended), run the waiters' rounds again: a release that happened
            // after their failed round but before the subscription was not seen
            CompletableFuture.allOf(subs).whenComplete((x, e) -> released(1, -1));
        }

        private void message(int node, String payload) {
            int waiting;
            try {
                waiting = Integer.parseInt(payload.trim());
            } catch (RuntimeException e) {
                waiting = 1;
            }
            lastNode = node;
            released(waiting, node);
        }

        /** Wake everyone waiting now (each after its own random pause). */
        void released(int waitingInstances, int node) {
            Waiter[] now;
            synchronized (ReleaseSignals.this) {
                generation++;
                now = waiters.toArray(new Waiter[0]);
            }
            for (Waiter w : now) wake(w, waitingInstances, node);
        }

        void left(Waiter w) {
            synchronized (ReleaseSignals.this) {
                waiters.remove(w);
                if (!waiters.isEmpty() || dropped || linger != null) return;
                try {
                    linger = ctx.scheduler().schedule(this::expire, LINGER_NANOS, TimeUnit.NANOSECONDS);
                } catch (RejectedExecutionException e) {
                    linger = null;
                }
            }
        }

        private void expire() {
            synchronized (ReleaseSignals.this) {
                if (!waiters.isEmpty() || channels.get(resource) != this) return;
                channels.remove(resource);
            }
            unsubscribe();
        }

        void unsubscribe() {
            int[] ids;
            synchronized (ReleaseSignals.this) {
                dropped = true;
                ids = listenerIds.clone();
                Arrays.fill(listenerIds, -1);
            }
            for (int i = 0; i < ids.length; i++) if (ids[i] >= 0) ctx.node(i).unsubscribe(name, ids[i]);
        }
    }
}
