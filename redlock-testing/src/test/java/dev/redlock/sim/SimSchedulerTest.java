package dev.redlock.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class SimSchedulerTest {
    private final SimScheduler s = new SimScheduler(42);
    private final List<String> ran = new ArrayList<>();

    @Test
    void tasksRunInTimeThenSubmissionOrderAndTimeJumpsToEachTask() {
        s.schedule(() -> ran.add("b@" + s.nanoTime()), 20, TimeUnit.MILLISECONDS);
        s.schedule(() -> ran.add("a@" + s.nanoTime()), 10, TimeUnit.MILLISECONDS);
        s.schedule(() -> ran.add("c@" + s.nanoTime()), 20, TimeUnit.MILLISECONDS);
        s.execute(() -> ran.add("now@" + s.nanoTime()));
        assertEquals(0, s.nanoTime(), "time moves only when the loop runs");
        assertEquals(4, s.runUntilIdle());
        assertEquals(List.of("now@0", "a@10000000", "b@20000000", "c@20000000"), ran);
        assertEquals(20_000_000, s.nanoTime());
    }

    @Test
    void runForStopsAtTheHorizonAndSetsTheClockToIt() {
        s.after(Duration.ofSeconds(2), () -> ran.add("late"));
        s.after(Duration.ofMillis(500), () -> ran.add("early"));
        s.runFor(Duration.ofSeconds(1));
        assertEquals(List.of("early"), ran);
        assertEquals(1_000_000_000L, s.nanoTime());
        s.advance(Duration.ofSeconds(1));
        assertEquals(List.of("early", "late"), ran);
    }

    @Test
    void aTaskScheduledByATaskForNowRunsAfterTheOnesAlreadyDue() {
        s.execute(() -> {
            ran.add("first");
            s.execute(() -> ran.add("third"));
        });
        s.execute(() -> ran.add("second"));
        s.runUntilIdle();
        assertEquals(List.of("first", "second", "third"), ran);
    }

    @Test
    void periodicTasksRepeatAtFixedRateOrWithFixedDelayUntilCancelled() {
        ScheduledFuture<?> rate = s.scheduleAtFixedRate(() -> ran.add("r" + s.nanoTime() / 1_000_000), 0, 10, TimeUnit.MILLISECONDS);
        ScheduledFuture<?> delay = s.scheduleWithFixedDelay(() -> ran.add("d" + s.nanoTime() / 1_000_000), 5, 15, TimeUnit.MILLISECONDS);
        s.runFor(Duration.ofMillis(35));
        assertTrue(rate.cancel(false));
        assertTrue(delay.cancel(false));
        s.runFor(Duration.ofMillis(100));
        // equal times run in the order the tasks were (re)scheduled: d20 was queued at 5 ms, r20 at 10 ms
        assertEquals(List.of("r0", "d5", "r10", "d20", "r20", "r30", "d35"), ran);
        assertTrue(rate.isCancelled());
    }

    @Test
    void aCancelledTaskDoesNotRunAndAFailingTaskDoesNotStopTheLoop() throws Exception {
        ScheduledFuture<?> f = s.schedule(() -> ran.add("never"), 1, TimeUnit.SECONDS);
        f.cancel(false);
        s.execute(() -> {
            throw new IllegalStateException("boom");
        });
        Future<?> caught = s.submit(() -> {
            throw new IllegalStateException("kept in its future, as a thread pool does");
        });
        Future<String> ok = s.submit(() -> "fine");
        s.runUntilIdle();
        assertEquals(List.of(), ran);
        assertEquals("fine", ok.get());
        assertThrows(java.util.concurrent.ExecutionException.class, caught::get);
        assertEquals(1, s.failures().size());
        assertEquals("boom", s.failures().get(0).getMessage());
    }

    @Test
    void aBlockingGetOnTheLoopThreadThrowsInsteadOfHanging() {
        ScheduledFuture<?> later = s.schedule(() -> ran.add("x"), 1, TimeUnit.SECONDS);
        s.execute(() -> assertThrows(IllegalStateException.class, later::get));
        s.runUntilIdle();
        assertTrue(s.failures().isEmpty(), () -> s.failures().toString());
    }

    @Test
    void shutdownRefusesNewTasksAndShutdownNowDropsQueuedOnes() {
        s.schedule(() -> ran.add("queued"), 1, TimeUnit.SECONDS);
        s.shutdown();
        assertThrows(RejectedExecutionException.class, () -> s.execute(() -> {}));
        assertFalse(s.isTerminated());
        assertEquals(1, s.shutdownNow().size());
        assertTrue(s.isTerminated());
        assertTrue(s.awaitTermination(1, TimeUnit.SECONDS));
        s.runUntilIdle();
        assertEquals(List.of(), ran);
    }

    @Test
    void runUntilIdleEndsWhenOnlyTheModelsBackgroundTimersAreLeft() {
        SimNode aof = SimNode.builder(s, "n").persistence(Persistence.AOF_EVERYSEC).build();
        s.schedule(() -> ran.add("last"), 3, TimeUnit.SECONDS);
        s.runUntilIdle();
        assertEquals(List.of("last"), ran);
        assertEquals(3_000_000_000L, s.nanoTime(), "the fsync timer ran on the way, and does not keep the loop busy");
        assertEquals(1, s.pendingTasks(), "it is still there");
        aof.kill();
    }

    @Test
    void aPeriodicTaskThatCancelsItselfStops() {
        ScheduledFuture<?>[] self = new ScheduledFuture<?>[1];
        self[0] = s.scheduleAtFixedRate(() -> {
            ran.add("tick");
            self[0].cancel(false);
        }, 0, 1, TimeUnit.SECONDS);
        s.runUntilIdle();
        assertEquals(List.of("tick"), ran);
        assertEquals(0, s.pendingTasks());
    }

    @Test
    void theLoopDoesNotNest() {
        s.execute(() -> assertThrows(IllegalStateException.class, s::runUntilIdle));
        s.runUntilIdle();
        assertTrue(s.failures().isEmpty());
    }

    @Test
    void theRandomIsAFunctionOfTheSeed() {
        assertEquals(new SimScheduler(7).random().nextLong(), new SimScheduler(7).random().nextLong());
        assertEquals(7, new SimScheduler(7).seed());
    }

    @Test
    void delaysReportVirtualTimeLeft() {
        ScheduledFuture<?> f = s.schedule(() -> {}, 3, TimeUnit.SECONDS);
        s.runFor(Duration.ofSeconds(1));
        assertEquals(2000, f.getDelay(TimeUnit.MILLISECONDS));
    }
}
