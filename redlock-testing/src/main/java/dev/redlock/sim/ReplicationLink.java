package dev.redlock.sim;

import java.util.ArrayDeque;

/**
 * The replication stream from a master to one replica: every change of the master's data ({@link Effect}) reaches
 * the replica after the link's lag, in order. A cut link (or a master that is down) keeps the changes in the
 * master's backlog; restoring the link sends them (a partial resync: the backlog is unbounded in the model). Not
 * thread-safe.
 */
final class ReplicationLink {
    private record InFlight(long due, Effect effect) {}

    final SimNode master;
    final SimNode replica;
    long lagNanos;
    boolean cut;
    /** A full sync was done and the master has not restarted since. */
    boolean synced;
    private final ArrayDeque<Effect> backlog = new ArrayDeque<>();
    private final ArrayDeque<InFlight> inFlight = new ArrayDeque<>();
    private long lastDue;

    ReplicationLink(SimNode master, SimNode replica, long lagNanos) {
        this.master = master;
        this.replica = replica;
        this.lagNanos = lagNanos;
    }

    /** Whether the replica would report {@code master_link_status:up}. */
    boolean up() {
        return synced && !cut && master.isRunning();
    }

    void send(Effect e) {
        if (!synced) return;
        if (cut) {
            backlog.add(e);
            return;
        }
        SimScheduler s = master.scheduler();
        long due = Math.max(SimScheduler.saturatedAdd(s.nanoTime(), lagNanos), lastDue);
        lastDue = due;
        inFlight.add(new InFlight(due, e));
        s.at(due, this::drain);
    }

    /** Applies what has arrived (called when changes fall due, and when a paused replica resumes). */
    void drain() {
        long now = master.scheduler().nanoTime();
        while (!inFlight.isEmpty() && inFlight.peek().due() <= now) {
            if (!replica.isRunning()) {
                inFlight.clear();
                return;
            }
            if (replica.isPaused()) return;
            replica.applyReplicated(inFlight.poll().effect());
        }
    }

    void restore() {
        cut = false;
        while (!backlog.isEmpty()) send(backlog.poll());
    }

    /** A full sync replaces everything: what was queued is moot. */
    void resynced() {
        synced = true;
        backlog.clear();
        inFlight.clear();
    }

    void broken() {
        synced = false;
        backlog.clear();
    }
}
