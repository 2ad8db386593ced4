package dev.redlock.chaos.nemesis;

import dev.redlock.chaos.cluster.ChaosCluster;
import eu.rekawek.toxiproxy.model.Toxic;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/** The network family's plumbing: unique toxic names, removing a fault's toxics, Toxiproxy I/O as unchecked. */
final class Toxics {
    private static final AtomicInteger TOXICS = new AtomicInteger();

    private Toxics() {
    }

    static void removeAll(List<Toxic> toxics) throws IOException {
        IOException first = null;
        for (Toxic t : toxics) {
            try {
                t.remove();
            } catch (IOException e) {
                if (first == null) first = e;
            }
        }
        if (first != null) throw first;
    }

    static String toxicName(String kind) {
        return ChaosCluster.TOXIC_PREFIX + kind + "-" + TOXICS.incrementAndGet();
    }

    @FunctionalInterface
    interface IoCall<T> {
        T call() throws IOException;
    }

    @FunctionalInterface
    interface IoRun {
        void run() throws IOException;
    }

    static <T> T io(IoCall<T> c) {
        try {
            return c.call();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void io(IoRun r) {
        try {
            r.run();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
