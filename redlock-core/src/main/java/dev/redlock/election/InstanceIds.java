package dev.redlock.election;

import java.net.InetAddress;
import java.util.concurrent.ThreadLocalRandom;

/** The default instance id of an election: this host's name and a random suffix (two elections on one host differ). */
final class InstanceIds {
    private InstanceIds() {
    }

    /** {@code $HOSTNAME}, else the local host name, else {@code unknown-host}; then {@code -} and 8 hex digits. */
    static String forThisHost() {
        String host = System.getenv("HOSTNAME");
        if (host == null || host.isBlank()) {
            try {
                host = InetAddress.getLocalHost().getHostName();
            } catch (Exception e) {
                host = "unknown-host";
            }
        }
        return host + "-" + String.format("%08x", ThreadLocalRandom.current().nextInt());
    }
}
