package dev.redlock.chaos.workload;

import dev.redlock.Lease;
import dev.redlock.LeaseLostException;
import dev.redlock.LockUnavailableException;
import dev.redlock.Redlock;
import dev.redlock.RedlockConfig;
import dev.redlock.RedlockException;
import dev.redlock.chaos.history.Event;
import dev.redlock.chaos.history.History;
import dev.redlock.internal.Failures;
import dev.redlock.internal.RedlockInternals;
import dev.redlock.testkit.Sleep;
import java.time.Duration;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * One workload client: its own {@link Redlock} instance (own connections, own event loop), one protected lock name,
 * and the {@link Resource}. Every lock operation is recorded in the {@link History} as INVOKE then OK / FAIL / INFO;
 * an exception other than the library's "unavailable" or "lost" answers is INFO (outcome unknown).
 *
 * <p>Give it a config with {@code retryCount 0}: one {@link #tryAcquire} is one quorum round, and the client's own
 * seeded retry loop ({@link #acquire}) makes rounds countable. One thread drives a client at a time.
 */
public final class WorkloadClient implements AutoCloseable {
    private static final int MAX_DETAIL = 400;

    private final int id;
    private final Redlock redlock;
    private final History history;
    private final Resource resource;
    private final String lockName;
    private int leases;

    public WorkloadClient(int id, RedlockConfig config, History history, Resource resource, String lockName) {
        this(id, Redlock.create(config), history, resource, lockName);
    }

    /** A client around a {@link Redlock} made elsewhere (e.g. with a stepped clock); {@link #close()} closes it. */
    public WorkloadClient(int id, Redlock redlock, History history, Resource resource, String lockName) {
        this.id = id;
        this.redlock = redlock;
        this.history = history;
        this.resource = resource;
        this.lockName = lockName;
    }

    public int id() {
        return id;
    }

    public Redlock redlock() {
        return redlock;
    }

    public String lockName() {
        return lockName;
    }

    /** Opens this client's connections and loads the scripts, on a lock name of its own; not recorded. */
    public void warmUp(Duration ttl) {
        String name = "warmup-c" + id;
        for (int i = 0; i < 3; i++) {
            try {
                redlock.acquire(name, ttl).release();
                return;
            } catch (RedlockException e) {
                Sleep.of(Duration.ofMillis(20));
            }
        }
    }

    /** One quorum round on the protected lock. */
    public Optional<Held> tryAcquire(Duration ttl) {
        history.invoke(Event.Op.ACQUIRE, id, "", -1);
        try {
            return Optional.of(acquired(redlock.acquire(lockName, ttl)));
        } catch (LockUnavailableException e) {
            history.fail(Event.Op.ACQUIRE, id, "", -1, shorten(e.getMessage()));
            return Optional.empty();
        } catch (RedlockException e) {
            history.info(Event.Op.ACQUIRE, id, "", -1, shorten(String.valueOf(e)));
            return Optional.empty();
        }
    }

    /**
     * One quorum round, started now on the caller's thread and completed on the library's threads: several clients
     * can start rounds within a millisecond of each other from one thread.
     */
    public CompletableFuture<Optional<Held>> tryAcquireAsync(Duration ttl) {
        history.invoke(Event.Op.ACQUIRE, id, "", -1);
        return redlock.acquireAsync(lockName, ttl).handle((lease, error) -> {
            if (lease != null) return Optional.of(acquired(lease));
            Throwable t = Failures.unwrap(error);
            if (t instanceof LockUnavailableException) {
                history.fail(Event.Op.ACQUIRE, id, "", -1, shorten(t.getMessage()));
            } else {
                history.info(Event.Op.ACQUIRE, id, "", -1, shorten(String.valueOf(t)));
            }
            return Optional.empty();
        });
    }

    /** Labels a lease the library returned and records its OK (with the validity left) and its owner value. */
    private Held acquired(Lease lease) {
        long now = History.now();
        long validity = lease.remainingValidity().toNanos();
        long token = lease.fencingToken();
        String owner;
        synchronized (this) {
            owner = "c" + id + "#" + (++leases);
        }
        history.ownerValue(owner, RedlockInternals.ownerValue(lease));
        history.append(Event.Type.OK, Event.Op.ACQUIRE, id, now, owner, token, validity, "");
        return new Held(lease, owner, token, now, validity);
    }

    /**
     * Rounds of {@link #tryAcquire} until one succeeds or {@code untilNanos} passes, sleeping
     * {@code retryDelay ± retryJitter} (drawn from {@code rnd}) between rounds.
     */
    public Optional<Held> acquire(Duration ttl, long untilNanos, Random rnd, Duration retryDelay, Duration retryJitter) {
        while (History.now() < untilNanos) {
            Optional<Held> h = tryAcquire(ttl);
            if (h.isPresent()) return h;
            long jitter = retryJitter.toNanos();
            long delay = retryDelay.toNanos() + (jitter == 0 ? 0 : (long) ((rnd.nextDouble() * 2 - 1) * jitter));
            long left = untilNanos - History.now();
            if (left <= 0) break;
            Sleep.of(Duration.ofNanos(Math.max(0, Math.min(delay, left))));
        }
        return Optional.empty();
    }

    /** Reads both stores. */
    public Reads read() {
        return resource.read();
    }

    /** Writes {@code reads + 1} to both stores with the lease's token. */
    public Resource.Outcome write(Held h, Reads reads) {
        return resource.write(id, h.owner(), h.token(), reads);
    }

    /** Re-sets the TTL on the nodes; false (and the lease lost) when a quorum could not be re-held in time. */
    public boolean extend(Held h, Duration ttl) {
        history.invoke(Event.Op.EXTEND, id, h.owner(), h.token());
        try {
            h.lease().extend(ttl);
            long now = History.now();
            history.append(Event.Type.OK, Event.Op.EXTEND, id, now, h.owner(), h.token(),
                    h.lease().remainingValidity().toNanos(), "");
            return true;
        } catch (LeaseLostException e) {
            history.fail(Event.Op.EXTEND, id, h.owner(), h.token(), shorten(e.getMessage()));
            return false;
        } catch (RedlockException | IllegalStateException e) {
            history.info(Event.Op.EXTEND, id, h.owner(), h.token(), shorten(String.valueOf(e)));
            return false;
        }
    }

    /**
     * Asks the lease whether it is still valid, as a client does before a side effect: records VALID with the validity
     * it was told is left (what the client now believes), or LOST when it was told the lease is gone.
     */
    public boolean isValid(Held h) {
        long now = History.now();
        long left = h.lease().remainingValidity().toNanos();   // read first: now + left never exceeds the deadline
        if (left > 0 && h.lease().isValid()) {
            history.append(Event.Type.OK, Event.Op.VALID, id, now, h.owner(), h.token(), left, "");
            return true;
        }
        history.append(Event.Type.INFO, Event.Op.LOST, id, History.now(), h.owner(), h.token(), 0, "isValid() false");
        return false;
    }

    /**
     * {@link Redlock#withLock}: acquires (one round), runs {@code task} while the library's watchdog extends the lease,
     * releases. Records the acquire, the release (invoked when the task ends) and, when the library reports the lease
     * lost, a LOST event; the task sees the lease as a {@link Held}. Empty when the lock was unavailable.
     */
    public <T> Optional<T> withLock(Duration ttl, Function<Held, T> task) {
        history.invoke(Event.Op.ACQUIRE, id, "", -1);
        Held[] held = new Held[1];
        try {
            T result = redlock.withLock(lockName, ttl, lease -> {
                held[0] = acquired(lease);
                try {
                    return task.apply(held[0]);
                } finally {
                    history.invoke(Event.Op.RELEASE, id, held[0].owner(), held[0].token());
                }
            });
            history.ok(Event.Op.RELEASE, id, held[0].owner(), held[0].token(), 0);
            return Optional.ofNullable(result);
        } catch (LockUnavailableException e) {
            history.fail(Event.Op.ACQUIRE, id, "", -1, shorten(e.getMessage()));
            return Optional.empty();
        } catch (LeaseLostException e) {
            Held h = held[0];
            history.append(Event.Type.INFO, Event.Op.LOST, id, History.now(), h.owner(), h.token(), 0, shorten(e.getMessage()));
            history.ok(Event.Op.RELEASE, id, h.owner(), h.token(), 0);
            return Optional.empty();
        } catch (RedlockException e) {
            if (held[0] == null) history.info(Event.Op.ACQUIRE, id, "", -1, shorten(String.valueOf(e)));
            else history.info(Event.Op.RELEASE, id, held[0].owner(), held[0].token(), shorten(String.valueOf(e)));
            return Optional.empty();
        }
    }

    /** Records that the client learned its lease is gone (validity ran out before it could act, ...). */
    public void noteLost(Held h, String why) {
        history.append(Event.Type.INFO, Event.Op.LOST, id, History.now(), h.owner(), h.token(), 0, why);
    }

    /** Token-checked release on every node. */
    public void release(Held h) {
        history.invoke(Event.Op.RELEASE, id, h.owner(), h.token());
        try {
            h.lease().release();
            history.ok(Event.Op.RELEASE, id, h.owner(), h.token(), 0);
        } catch (RuntimeException e) {
            history.info(Event.Op.RELEASE, id, h.owner(), h.token(), shorten(String.valueOf(e)));
        }
    }

    @Override
    public void close() {
        redlock.close();
    }

    private static String shorten(String s) {
        if (s == null) return "";
        return s.length() <= MAX_DETAIL ? s : s.substring(0, MAX_DETAIL) + "...";
    }

    @Override
    public String toString() {
        return "WorkloadClient[" + id + "]";
    }
}
