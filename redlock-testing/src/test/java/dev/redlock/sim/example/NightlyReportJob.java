package dev.redlock.sim.example;

import dev.redlock.Lease;
import dev.redlock.Redlock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.Map;

/**
 * A user's service, as it would be written against the library: the nightly report runs on one instance at a
 * time; each run stores its report under the lease's fencing token, and the store refuses a token below the
 * highest it has seen (so a run whose lease was lost cannot overwrite a newer one).
 */
final class NightlyReportJob {
    /** The application's database, fenced by token. */
    static final class ReportStore {
        private long highestToken = -1;
        private final Map<Long, String> reports = new ConcurrentHashMap<>();

        synchronized boolean save(long token, String report) {
            if (token < highestToken) return false;
            highestToken = token;
            reports.put(token, report);
            return true;
        }

        synchronized int count() {
            return reports.size();
        }
    }

    private final Redlock redlock;
    private final ReportStore store;

    NightlyReportJob(Redlock redlock, ReportStore store) {
        this.redlock = redlock;
        this.store = store;
    }

    /** Runs the report unless another instance holds the lock: true when this call stored a report. */
    boolean runOnce(String day) {
        Optional<Lease> lease = redlock.tryAcquire("report:" + day, Duration.ofSeconds(30));
        if (lease.isEmpty()) return false;
        try (Lease l = lease.get()) {
            l.checkValid();
            return store.save(l.fencingToken(), "report of " + day);
        }
    }
}
