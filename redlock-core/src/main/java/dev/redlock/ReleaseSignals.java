package dev.redlock;

import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Wakes waiting acquisitions when the holder releases, instead of letting them poll blindly.
 *
 * <p>The RELEASE script publishes on {@code keyPrefix + "__released:" + resource} on every node where it deleted
 * the lock. While some acquisition of this instance waits for a resource, the instance is subscribed to that
 * channel on every node; the first message from any node runs every waiter's next round at once. The retry timer
 * ({@code retryDelay ± retryJitter}) stays armed as the fallback: a message can be missed (node down, subscription
 * not yet active, a lock that expired by TTL publishes nothing), and then the waiter simply polls as before.
 *
 * <p>A wake-up is only a hint: the woken waiter runs a normal quorum round, so a spurious or forged message can
 * cost a round trip, never safety. A new subscription wakes its waiters once it is active, which closes the gap
 * between their failed round and the subscription (a release in that gap would otherwise be missed). Channels
 * stay subscribed for {@link #LINGER_NANOS} after their last waiter left, so a contended resource does not
 * subscribe and unsubscribe on every handoff. Thread-safe.
 */
final class ReleaseSignals {
    static final long LINGER_NANOS = TimeUnit.SECONDS.toNanos(5);

    private final RedlockContext ctx;
    private final Map<String, Channel> channels = new HashMap<>();   // guarded by this
    private boolean closed;                                           // guarded by this

    ReleaseSignals(RedlockContext ctx) {
        this.ctx = ctx;
    }

    /**
     * Runs {@code next} once: on the first release message for {@code resource} (or the subscription becoming
     * active), or after {@code fallbackNanos}, whichever comes first.
     */
    void await(String resource, long fallbackNanos, Runnable next) {
        Waiter w;
        Channel ch;
        boolean subscribe = false;
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

    private final class Waiter {
        private final Runnable next;
        private final AtomicBoolean fired = new AtomicBoolean();
        private final Channel channel;
        private volatile ScheduledFuture<?> fallback;

        Waiter(Runnable next, Channel channel) {
            this.next = next;
            this.channel = channel;
        }

        void fire() {
            if (!fired.compareAndSet(false, true)) return;
            ScheduledFuture<?> f = fallback;
            if (f != null) f.cancel(false);
            Channel ch = channel;
            if (ch != null) ch.left(this);
            next.run();
        }
    }

    private final class Channel {
        private final String resource;
        private final String name;
        private final Set<Waiter> waiters = new LinkedHashSet<>();   // guarded by ReleaseSignals.this
        private final int[] listenerIds;                               // guarded by ReleaseSignals.this; -1 = none
        private ScheduledFuture<?> linger;                            // guarded by ReleaseSignals.this
        private boolean dropped;                                       // guarded by ReleaseSignals.this

        Channel(String resource) {
            this.resource = resource;
            this.name = ctx.releasedChannel(resource);
            this.listenerIds = new int[ctx.nodes().size()];
            java.util.Arrays.fill(listenerIds, -1);
        }

        void subscribe() {
            CompletableFuture<?>[] subs = new CompletableFuture<?>[ctx.nodes().size()];
            for (int i = 0; i < subs.length; i++) {
                final int node = i;
                subs[i] = ctx.node(i).subscribe(name, this::released).thenAccept(id -> {
                    boolean drop;
                    synchronized (ReleaseSignals.this) {
                        drop = dropped;
                        if (!drop) listenerIds[node] = id;
                    }
                    if (drop) ctx.node(node).unsubscribe(name, id);
                });
            }
            // once subscribed on a quorum's worth of nodes (or all attempts ended), re-run the waiters' rounds: a
            // release that happened after their failed round but before the subscription was not seen
            CompletableFuture.allOf(subs).whenComplete((x, e) -> released());
        }

        /** A release message (or the subscription became active): wake everyone waiting now. */
        void released() {
            Waiter[] now;
            synchronized (ReleaseSignals.this) {
                now = waiters.toArray(new Waiter[0]);
            }
            for (Waiter w : now) w.fire();
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
                java.util.Arrays.fill(listenerIds, -1);
            }
            for (int i = 0; i < ids.length; i++) if (ids[i] >= 0) ctx.node(i).unsubscribe(name, ids[i]);
        }
    }
}
