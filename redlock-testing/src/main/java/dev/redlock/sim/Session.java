package dev.redlock.sim;

import java.util.LinkedHashSet;
import java.util.Set;

/**
 * One client connection as the node sees it: its authentication and its pub/sub subscriptions. A message published
 * on a subscribed channel goes to {@link #deliver}; a session without a connection behind it (a fixture command)
 * drops it.
 */
class Session {
    final Set<String> channels = new LinkedHashSet<>();
    boolean authenticated;

    /** A published message for this connection (called on the node, at publish time). */
    void deliver(String channel, String message) {
        // no connection: nobody listens
    }
}
