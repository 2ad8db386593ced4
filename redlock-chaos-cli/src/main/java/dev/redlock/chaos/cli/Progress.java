package dev.redlock.chaos.cli;

import dev.redlock.chaos.scenario.Scenario;
import dev.redlock.chaos.scenario.ScenarioResult;
import java.util.Locale;

/** The progress line: which scenario runs, for how long, and each result as it completes. Thread-safe. */
final class Progress {
    private final int total;
    private final boolean live = System.console() != null;
    private volatile Scenario current;
    private volatile long startedNanos;
    private int done;
    private Thread ticker;

    Progress(int total) {
        this.total = total;
    }

    void start() {
        if (!live) return;
        ticker = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                Scenario s = current;
                if (s != null) {
                    System.err.printf(Locale.ROOT, "\r[%d/%d] scenario %s (%s) running %.1fs   ", done + 1, total, s.id(),
                            s.name(), (System.nanoTime() - startedNanos) / 1e9);
                }
                try {
                    Thread.sleep(500);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "chaos-progress");
        ticker.setDaemon(true);
        ticker.start();
    }

    synchronized void begin(Scenario s) {
        startedNanos = System.nanoTime();
        current = s;
        if (!live) System.err.printf(Locale.ROOT, "[%d/%d] scenario %s (%s) ...%n", done + 1, total, s.id(), s.name());
    }

    synchronized void done(ScenarioResult r) {
        current = null;
        done++;
        if (r.isSkipped()) {
            System.err.printf(Locale.ROOT, "%s[%d/%d] scenario %s SKIPPED: %s%n", live ? "\r" : "", done, total, r.id(),
                    r.skipped());
            return;
        }
        System.err.printf(Locale.ROOT, "%s[%d/%d] scenario %s %s: expected %s, observed %s, %d violations, %.1fs%n",
                live ? "\r" : "", done, total, r.id(), r.passed() ? "PASS" : "FAIL", r.expected(), r.observed(),
                r.counts() == null ? -1 : r.counts().violations(), r.durationMs() / 1000.0);
    }

    void stop() {
        if (ticker != null) ticker.interrupt();
    }
}
