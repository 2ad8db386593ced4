package dev.redlock;

import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Wakes waiting acquisitions when the holder releases, instead of letting them poll blindly.
 *
 * <p>The RELEASE script of a held lease publishes on {@code keyPrefix + "__released:" + resource} on every node
 * where it deleted the lock; the message is the number of instances subscribed there. While an acquisition of
 * this instance listens for a resource, the instance is subscribed to that channel on one node (picked by the
 * resource's hash; the next one if that subscription fails): a release runs on every reachable node, so one copy
 * is enough. The retry timer ({@code retryDelay ± retryJitter}) stays armed as the fallback: a message can be
 * missed (node down, a lock that expired by TTL publishes nothing), and then the waiter polls as before.
 *
 * <p>A waiter listens until it has used its one probe: once subscribed it checks the lock with one
 * {@code EXISTS} on a node where its failed round saw the holder (a release between that round and the
 * subscription is not missed);
 * on a message it pauses two recent round durations plus a random share of (waiting instances × one round) and
 * probes that node again. Free there: it runs its round. Taken again (someone was faster, typically a holder
 * that releases and re-acquires in a loop): it stops listening and waits for its retry timer, so a hot lock costs
 * each waiter about one probe per retry delay, as polling did, not one per release; and an instance subscribes
 * only while one of its waiters listens. The messages and probes are only hints: a woken waiter runs a normal
 * quorum round, so a spurious, forged or stale hint costs a round trip or a fallback delay, never safety.
 * Thread-safe.
 */
final class ReleaseSignals {
    private static final long MIN_PAUSE_NANOS = TimeUnit.MICROSECONDS.toNanos(20);

    private final RedlockContext ctx;
    private final Map<String, Channel> channels = new HashMap<>();   // guarded by this
    private boolean closed;                                           // guarded by this

    ReleaseSignals(RedlockContext ctx) {
        this.ctx = ctx;
    }

    /**
     * Runs {@code next} once: after a release message for {@code resource} finds the lock free (see the class
     * comment), or after {@code fallbackNanos}, whichever comes first.
     *
     * @param heldOn a node where the failed round saw the holder's value (-1 if none): once subscribed, the waiter
     *               checks there whether the lock was released in the meantime. Checking any other node could
     *               find it free (the holder's quorum need not include it) and spin the waiter through rounds.
     */
    void await(String resource, int heldOn, long fallbackNanos, Runnable next) {
        Waiter w;
        Channel ch;
        boolean subscribe = false;
        boolean active = false;
        synchronized (this) {
            if (closed) {
                ch = null;
            } else {
                ch = channels.get(resource);
                if (ch == null) {
                    ch = new Channel(resource);
                    channels.put(resource, ch);
                    subscribe = true;
                }
                active = ch.node >= 0;
            }
            w = new Waiter(next, ch, heldOn);
            if (ch != null) ch.waiters.add(w);
        }
        try {
            w.fallback = ctx.scheduler().schedule(w::fire, fallbackNanos, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {   // closing: run the round now, it will fail fast
            w.fire();
            return;
        }
        if (subscribe) ch.subscribe();
        else if (active) w.check();                 // already subscribed: same check as after a fresh subscription
    }

    /** Number of resources currently subscribed or subscribing (for tests). */
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

    private final class Waiter {
        private final Runnable next;
        private final Channel channel;
        private final AtomicBoolean fired = new AtomicBoolean();
        private final AtomicBoolean probed = new AtomicBoolean();   // the message-triggered probe was used
        private final int heldOn;
        private volatile ScheduledFuture<?> fallback;

        Waiter(Runnable next, Channel channel, int heldOn) {
            this.next = next;
            this.channel = channel;
            this.heldOn = heldOn;
        }

        /**
         * The check once subscribed, on the node where the holder was seen: gone there, run the round (it was
         * released before we listened); still there, keep listening for the release.
         */
        void check() {
            if (heldOn >= 0) exists(heldOn, false);
        }

        /** On a message, after a random pause: free, run the round; held, stop listening (retry timer only). */
        void onMessage(int waitingInstances, int node) {
            if (fired.get() || !probed.compareAndSet(false, true)) return;
            long round = ctx.roundEstimateNanos();
            long spread = Math.max(1, waitingInstances) * round;
            long pause = spread <= 0 ? 0 : 2 * round + ctx.seams().nextLong(spread);
            if (pause < MIN_PAUSE_NANOS) {
                exists(node, true);
                return;
            }
            try {
                ctx.scheduler().schedule(() -> exists(node, true), pause, TimeUnit.NANOSECONDS);
            } catch (RejectedExecutionException e) {
                fire();
            }
        }

        private void exists(int node, boolean last) {
            if (fired.get()) return;
            ctx.node(node).exists(ctx.lockKey(channel.resource)).whenComplete((held, e) -> {
                if (e != null || !Boolean.TRUE.equals(held)) fire();
                else if (last) channel.left(this);
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
        private final Set<Waiter> waiters = new LinkedHashSet<>();   // listening waiters; guarded by ReleaseSignals.this
        private int node = -1;                                         // subscribed node; guarded by ReleaseSignals.this
        private int listenerId = -1;                                   // guarded by ReleaseSignals.this
        private boolean dropped;                                       // guarded by ReleaseSignals.this

        Channel(String resource) {
            this.resource = resource;
            this.name = ctx.releasedChannel(resource);
        }

        void subscribe() {
            subscribeFrom(Math.floorMod(resource.hashCode(), ctx.nodes().size()), ctx.nodes().size());
        }

        private void subscribeFrom(int at, int attemptsLeft) {
            ctx.node(at).subscribe(name, payload -> message(at, payload)).whenComplete((id, e) -> {
                if (e != null) {
                    if (attemptsLeft > 1) subscribeFrom((at + 1) % ctx.nodes().size(), attemptsLeft - 1);
                    return;
                }
                Waiter[] now;
                synchronized (ReleaseSignals.this) {
                    if (!dropped) {
                        node = at;
                        listenerId = id;
                    }
                    now = dropped ? null : waiters.toArray(new Waiter[0]);
                }
                if (now == null) {
                    ctx.node(at).unsubscribe(name, id);
                    return;
                }
                for (Waiter w : now) w.check();
            });
        }

        private void message(int at, String payload) {
            int waiting;
            try {
                waiting = Integer.parseInt(payload.trim());
            } catch (RuntimeException e) {
                waiting = 1;
            }
            Waiter[] now;
            synchronized (ReleaseSignals.this) {
                now = waiters.toArray(new Waiter[0]);
            }
            for (Waiter w : now) w.onMessage(waiting, at);
        }

        /** The waiter stopped listening; the last one to leave unsubscribes. */
        void left(Waiter w) {
            synchronized (ReleaseSignals.this) {
                waiters.remove(w);
                if (!waiters.isEmpty() || dropped) return;
                if (channels.get(resource) == this) channels.remove(resource);
            }
            unsubscribe();
        }

        void unsubscribe() {
            int at;
            int id;
            synchronized (ReleaseSignals.this) {
                dropped = true;
                at = node;
                id = listenerId;
                listenerId = -1;
            }
            if (at >= 0 && id >= 0) ctx.node(at).unsubscribe(name, id);
        }
    }
}
