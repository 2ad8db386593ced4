package dev.redlock.doctor;

/**
 * Whether the connecting ACL user may run one command the library sends. Probed by sending the command itself in
 * a form that changes nothing (an unknown script SHA, a key that does not exist, an expiry the server rejects after
 * its permission check), because Redis checks permissions (command, key, channel) before it runs a command and
 * {@code ACL DRYRUN} does not exist before 7.0. Immutable.
 *
 * @param command  as the library sends it ({@code EVALSHA}, {@code PUBSUB NUMSUB})
 * @param usedBy   what in the library sends it
 * @param required false when the library works without it, with the loss {@code usedBy} names
 * @param status   what the probe found
 * @param reply    the node's reply to the probe (the {@code NOPERM} text when denied), or why it could not run
 */
public record CommandCheck(String command, String usedBy, boolean required, Status status, String reply) {
    /** What a probe found. */
    public enum Status {
        /** The ACL lets the user run it (on the probe's key and channel). */
        PERMITTED,
        /** {@code NOPERM}: the command, the key pattern or the channel is not permitted. */
        DENIED,
        /** The server does not know the command (renamed or disabled, as managed services do with CONFIG). */
        UNAVAILABLE,
        /** The probe got no answer. */
        UNKNOWN
    }
}
