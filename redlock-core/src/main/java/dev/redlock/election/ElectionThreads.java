package dev.redlock.election;

import dev.redlock.internal.Threads;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An election's three daemon threads: the campaign (rounds, renewals, releases: may block on Redis), the revocation
 * timer (deadlines only: never blocks, so it fires on time) and the callbacks (one at a time, in order).
 */
final class ElectionThreads {
    private static final Logger log = LoggerFactory.getLogger(LeaderElection.class);
    private static final long CALLBACK_DRAIN_MILLIS = 5_000;

    final ScheduledThreadPoolExecutor campaign;
    final ScheduledThreadPoolExecutor timer;
    private final ExecutorService callbacks;
    private final String instanceId;
    private final String resource;
    private volatile Thread callbackThread;

    ElectionThreads(String name, String instanceId, String resource) {
        this.instanceId = instanceId;
        this.resource = resource;
        this.campaign = new ScheduledThreadPoolExecutor(1, Threads.daemon(name + "-campaign"));
        this.campaign.setRemoveOnCancelPolicy(true);
        this.timer = new ScheduledThreadPoolExecutor(1, Threads.daemon(name + "-timer"));
        this.timer.setRemoveOnCancelPolicy(true);
        ThreadFactory callbackThreads = Threads.daemon(name + "-callbacks");
        this.callbacks = Executors.newSingleThreadExecutor(r -> {
            Thread t = callbackThreads.newThread(r);
            callbackThread = t;
            return t;
        });
    }

    void dispatch(List<Consumer<Term>> listeners, Term term, String what) {
        if (listeners.isEmpty()) return;
        List<Consumer<Term>> snapshot = List.copyOf(listeners);
        try {
            callbacks.execute(() -> {
                for (Consumer<Term> c : snapshot) {
                    try {
                        c.accept(term);
                    } catch (VirtualMachineError e) {
                        throw e;
                    } catch (Throwable e) {
                        log.warn("{}: {} callback for '{}' epoch {} threw", instanceId, what, resource, term.epoch(), e);
                    }
                }
            });
        } catch (RejectedExecutionException e) {
            log.warn("{}: {} callback for '{}' epoch {} not run: election closed", instanceId, what, resource,
                    term.epoch());
        }
    }

    /**
     * Stops the campaign (waiting up to {@code campaignNanos} for a round or release in flight) and the timer, then
     * lets the callbacks already queued run (up to 5 s; not when called from a callback, which would wait for itself).
     */
    void shutdown(long campaignNanos) {
        campaign.shutdown();
        timer.shutdown();
        awaitQuietly(campaign, campaignNanos);
        campaign.shutdownNow();
        timer.shutdownNow();
        callbacks.shutdown();
        if (Thread.currentThread() != callbackThread) {
            awaitQuietly(callbacks, TimeUnit.MILLISECONDS.toNanos(CALLBACK_DRAIN_MILLIS));
        }
    }

    private static void awaitQuietly(ExecutorService executor, long nanos) {
        try {
            executor.awaitTermination(nanos, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
