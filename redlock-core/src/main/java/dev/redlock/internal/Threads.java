package dev.redlock.internal;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Internal, not API: the library's thread factories, so every thread it starts is a daemon (it never keeps a JVM
 * alive) and is named after what it serves. Anything here may change or disappear in any release; applications
 * must not use it.
 */
public final class Threads {
    private Threads() {}

    /** Daemon threads named {@code name-1}, {@code name-2}, ... */
    public static ThreadFactory daemon(String name) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
