package dev.redlock.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/**
 * Free TCP ports on the loopback interface, picked at run time. A port is free when picked; another process may take
 * it before it is bound, so a caller that binds it retries with a new one when that fails.
 */
public final class Ports {
    private Ports() {}

    /** A port nothing listens on at this moment, on 127.0.0.1. */
    public static int free() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            s.setReuseAddress(true);
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
