package dev.redlock.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;

/** Runs one body on several platform threads released at once, for a fixed time (W2's clients, W6's callers). */
final class TimedThreads {
    private TimedThreads() {}

    /** What each thread runs until {@code stop} is set; {@code index} is the thread's number, 0..n-1. */
    @FunctionalInterface
    interface Body {
        void run(int index, AtomicBoolean stop);
    }

    /**
     * Starts {@code n} threads named {@code name-i}, releases them together, sets the stop flag after
     * {@code millis} and joins them (also when interrupted); returns the nanoseconds from the release to the stop.
     */
    static long run(int n, String name, Body body, long millis) throws InterruptedException {
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        try {
            for (int i = 0; i < n; i++) {
                final int index = i;
                Thread t = new Thread(() -> {
                    try {
                        go.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                    body.run(index, stop);
                }, name + "-" + i);
                threads.add(t);
                t.start();
            }
            long t0 = System.nanoTime();
            go.countDown();
            Thread.sleep(millis);
            stop.set(true);
            return System.nanoTime() - t0;
        } finally {
            stop.set(true);
            go.countDown();
            for (Thread t : threads) t.join(60_000);
        }
    }
}
