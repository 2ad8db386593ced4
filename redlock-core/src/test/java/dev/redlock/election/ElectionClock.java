package dev.redlock.election;

import dev.redlock.internal.Ticker;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;

/**
 * The monotonic clock of the elections under test (through their Redlocks): {@link System#nanoTime()}, except that
 * a thread of an election this clock {@linkplain #freeze froze} or {@linkplain #stallCampaign stalled} waits on its
 * next reading until {@link #thaw}. A stalled campaign thread is a long GC pause of it or a stuck call (the
 * revocation timer keeps running); a frozen election is a dead process: no renewal, no timer, no release, its
 * lease's keys left until their TTL. Threads are told apart by name: {@code leader-election-<n>-<instanceId>-<role>-1}.
 */
final class ElectionClock implements Ticker {
    private final Map<String, CountDownLatch> gates = new ConcurrentHashMap<>();   // thread name part -> gate

    @Override
    public long nanoTime() {
        if (!gates.isEmpty()) {
            String thread = Thread.currentThread().getName();
            for (Map.Entry<String, CountDownLatch> g : gates.entrySet()) {
                if (thread.contains(g.getKey())) awaitUninterruptibly(g.getValue());
            }
        }
        return System.nanoTime();
    }

    /** Blocks every thread of {@code e} at its next reading of the clock, as if its process died. */
    void freeze(LeaderElection e) {
        gates.putIfAbsent("-" + e.instanceId() + "-", new CountDownLatch(1));
    }

    /** Blocks the campaign thread of {@code e} (rounds, renewals) at its next reading of the clock. */
    void stallCampaign(LeaderElection e) {
        gates.putIfAbsent("-" + e.instanceId() + "-campaign-", new CountDownLatch(1));
    }

    /** Lets every frozen or stalled thread go on. */
    void thaw() {
        gates.values().forEach(CountDownLatch::countDown);
        gates.clear();
    }

    private static void awaitUninterruptibly(CountDownLatch gate) {
        boolean interrupted = false;
        while (true) {
            try {
                gate.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) Thread.currentThread().interrupt();
    }
}
