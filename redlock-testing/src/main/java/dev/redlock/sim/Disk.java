package dev.redlock.sim;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledFuture;

/**
 * A node's disk: the last RDB snapshot, and the append-only file as three parts: what is fsynced ({@code synced}, a
 * keyspace the log replays to), what was written but not fsynced ({@code written}: survives a process kill, not a
 * machine crash), and the fsync timer (once per virtual second under {@code everysec}). Not thread-safe.
 */
final class Disk {
    private final SimNode node;
    private Keyspace rdb;
    private long rdbSavedAtMs = 0;
    private Keyspace synced = new Keyspace();
    private final List<Effect> written = new ArrayList<>();
    private ScheduledFuture<?> fsyncTimer;
    long changesSinceSave;

    Disk(SimNode node) {
        this.node = node;
    }

    /** Takes an RDB snapshot of the node's data now. */
    void snapshot(Keyspace data) {
        rdb = data.copy();
        rdbSavedAtMs = node.clock().millis();
        changesSinceSave = 0;
    }

    long lastSaveMs() {
        return rdbSavedAtMs;
    }

    /** AOF turned on (or a full sync / restart rewrote it): the log now equals {@code data}. */
    void rewrite(Keyspace data) {
        synced = data.copy();
        written.clear();
    }

    /** One change of the node's data: logged when AOF is on. */
    void append(Effect e) {
        changesSinceSave++;
        Persistence p = node.persistence();
        if (!p.aof()) return;
        if (p == Persistence.AOF_ALWAYS) synced.apply(e);
        else written.add(e);
    }

    void fsync() {
        for (Effect e : written) synced.apply(e);
        written.clear();
    }

    /** Starts the once-a-second fsync (everysec) while the process runs. */
    void start() {
        stop();
        if (node.persistence() == Persistence.AOF_EVERYSEC) {
            fsyncTimer = node.scheduler().backgroundEvery(Duration.ofSeconds(1), () -> {
                if (!node.isPaused()) fsync();
            });
        }
    }

    void stop() {
        if (fsyncTimer != null) fsyncTimer.cancel(false);
        fsyncTimer = null;
    }

    /** The process died: what it wrote reaches the disk (the kernel flushes its page cache). */
    void processDied() {
        stop();
        fsync();
    }

    /** The machine died: what was not fsynced is gone. */
    void machineDied() {
        stop();
        written.clear();
    }

    /** What a restart loads. */
    Keyspace load() {
        return switch (node.persistence()) {
            case NONE -> new Keyspace();
            case RDB -> rdb == null ? new Keyspace() : rdb.copy();
            case AOF_EVERYSEC, AOF_ALWAYS -> synced.copy();
        };
    }
}
