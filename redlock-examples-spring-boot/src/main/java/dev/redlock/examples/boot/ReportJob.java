package dev.redlock.examples.boot;

import dev.redlock.shedlock.RedlockLockProvider;
import java.util.concurrent.atomic.AtomicLong;
import net.javacrumbs.shedlock.spring.annotation.SchedulerLock;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * Every instance schedules it; ShedLock on the starter's {@code RedlockLockProvider} runs it on one of them per tick.
 * Its write is fenced with the run's token. {@code lockAtMostFor} must not exceed {@code redlock.restart-quarantine}.
 */
@Component
public class ReportJob {
    private final FencedLedger ledger;
    private final AtomicLong runs = new AtomicLong();

    public ReportJob(FencedLedger ledger) {
        this.ledger = ledger;
    }

    @Scheduled(fixedDelay = 500)
    @SchedulerLock(name = "invoice-report", lockAtMostFor = "PT5S")
    public void run() {
        long token = RedlockLockProvider.currentFencingToken().getAsLong();
        if (ledger.write("report", "run " + runs.incrementAndGet() + " with token " + token, token)) return;
        runs.decrementAndGet();                                  // refused: a newer holder wrote already
    }

    public long runs() {
        return runs.get();
    }
}
