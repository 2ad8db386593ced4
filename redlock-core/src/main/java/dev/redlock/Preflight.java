package dev.redlock;

/**
 * What {@link Redlock#create} does about node settings that break the lock's guarantees: a {@code maxmemory} with a
 * policy that can evict lock keys, a node that is a replica, a clock too far from this client's or the other nodes',
 * an unsupported Redis version. The checks run on every reachable node at creation, and on a node again when it
 * answers after it failed or after its memory changed identity (restart, failover).
 *
 * <p>What it does not do: it cannot see a setting changed later on a node that keeps answering, and a node whose
 * {@code CONFIG} command is refused (managed services rename it) is checked from {@code INFO} only; what could not be
 * read is reported as unknown, never as a failure. See the README's preflight section for what each check protects.
 */
public enum Preflight {
    /**
     * The default. {@link Redlock#create} throws a {@link RedlockException} naming the node ({@code host:port}) and
     * the setting with its value; a node that fails the check later votes {@code ERROR} with that text until it
     * passes. Unknown values and untested versions are logged as warnings.
     */
    STRICT,
    /** Every finding is logged as a warning, once per node and finding; the node is used. */
    WARN,
    /** No checks. */
    OFF
}
