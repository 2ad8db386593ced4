package dev.redlock.examples.boot;

import dev.redlock.Redlock;
import java.time.Duration;
import java.util.Map;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/** Pays an invoice under its lock, fencing the write; reports the scheduled job's runs. */
@RestController
public class InvoiceController {
    private final Redlock redlock;
    private final FencedLedger ledger;
    private final ReportJob job;

    public InvoiceController(Redlock redlock, FencedLedger ledger, ReportJob job) {
        this.redlock = redlock;
        this.ledger = ledger;
        this.job = job;
    }

    /** One payment at a time per invoice, across every instance; the write carries the lease's fencing token. */
    @PostMapping("/invoices/{id}/pay")
    public Map<String, Object> pay(@PathVariable("id") String id) {
        return redlock.withLock("invoice:" + id, Duration.ofSeconds(10), lease -> {
            lease.checkValid();                                 // before the side effect
            long token = lease.fencingToken();
            boolean applied = ledger.write("invoice:" + id, "paid", token);
            return Map.of("invoice", id, "token", token, "applied", applied);
        });
    }

    @GetMapping("/report")
    public Map<String, Object> report() {
        return Map.of("runs", job.runs(), "last", String.valueOf(ledger.read("report")));
    }
}
