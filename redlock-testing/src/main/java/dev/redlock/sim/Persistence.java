package dev.redlock.sim;

/**
 * What a {@link SimNode} has on disk when it restarts.
 *
 * <ul>
 *   <li>{@link #NONE}: nothing: a restart comes back empty (no AOF, no dump loaded).</li>
 *   <li>{@link #RDB}: the last snapshot taken by {@link SimNode#snapshot()} (or {@code SAVE}/{@code BGSAVE}), at the
 *       moment it was taken; empty when none was taken.</li>
 *   <li>{@link #AOF_EVERYSEC}: the append-only file, fsynced once per virtual second. A process kill
 *       ({@link SimNode#kill()}) loses nothing that was written (the OS keeps its page cache); a machine crash
 *       ({@link SimNode#powerLoss()}) loses what was written since the last fsync.</li>
 *   <li>{@link #AOF_ALWAYS}: the append-only file fsynced before each reply: nothing acknowledged is lost.</li>
 * </ul>
 */
public enum Persistence {
    NONE, RDB, AOF_EVERYSEC, AOF_ALWAYS;

    boolean aof() {
        return this == AOF_EVERYSEC || this == AOF_ALWAYS;
    }
}
