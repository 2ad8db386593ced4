package dev.redlock.examples.invoice;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.Redlock;
import dev.redlock.RedlockConfig;
import dev.redlock.examples.invoice.InvoiceChargeExample.ChargeResult;
import dev.redlock.examples.invoice.InvoiceChargeExample.InvoiceCharger;
import dev.redlock.examples.invoice.InvoiceChargeExample.Ledger;
import dev.redlock.examples.invoice.InvoiceChargeExample.Outcome;
import dev.redlock.examples.invoice.InvoiceChargeExample.Step;
import dev.redlock.examples.support.ExampleNodes;
import dev.redlock.testkit.RedisNodesExtension;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Seed 003's charge under {@code withLock}, on 5 real redis-server processes and a real H2 database. */
class InvoiceChargeExampleIT {
    @RegisterExtension
    static final RedisNodesExtension REDIS = new RedisNodesExtension(5);   // and no lock keys left after each test

    private static RedlockConfig config;

    private Redlock redlock;
    private Ledger ledger;

    @BeforeAll
    static void configure() {
        config = InvoiceChargeExample.config(ExampleNodes.of(REDIS.cluster()));
    }

    @BeforeEach
    void setUp() throws Exception {
        try (Redlock admin = Redlock.create(config)) {
            assertEquals(5, admin.markNodesFresh());
        }
        redlock = Redlock.create(config);
        ledger = Ledger.inMemory(true);
    }

    @AfterEach
    void tearDown() throws Exception {
        REDIS.cluster().heal();
        redlock.close();
        ledger.shutdown();
    }

    @Test
    void chargesOnceAndARetryNeverChargesTwice() throws Exception {
        InvoiceCharger charger = new InvoiceCharger(redlock, ledger, Step.sleep(Duration.ofMillis(300)));

        ChargeResult first = charger.charge("42", 1250);
        ChargeResult retry = charger.charge("42", 1250);

        assertEquals(Outcome.CHARGED, first.outcome(), first.toString());
        assertFalse(first.leaseLost());
        assertEquals(Outcome.ALREADY_CHARGED, retry.outcome(), retry.toString());
        assertTrue(retry.token() > first.token());
        assertEquals(1, ledger.chargeCount("42"));
    }

    @Test
    void aSlowPartLongerThanTheTtlKeepsTheLeaseThroughTheWatchdog() throws Exception {
        InvoiceCharger charger = new InvoiceCharger(redlock, ledger, Step.sleep(InvoiceChargeExample.LEASE_TTL.multipliedBy(2)));
        ChargeResult r = charger.charge("45", 100);
        assertEquals(Outcome.CHARGED, r.outcome(), r.toString());
        assertFalse(r.leaseLost());
    }

    @Test
    void leaseLostMidWorkAbandonsTheChargeBeforeItsWriteAndTheRetryChargesOnce() throws Exception {
        CountDownLatch lostDuringSlowPart = new CountDownLatch(1);
        Step slowPart = (id, lease) -> {
            lease.onLost(lostDuringSlowPart::countDown);
            InvoiceChargeExample.pauseMajorityDuring(REDIS.cluster(), Duration.ofMillis(1200)).run(id, lease);
        };
        ChargeResult lost;
        try {
            lost = new InvoiceCharger(redlock, ledger, slowPart).charge("43", 9900);
        } finally {
            REDIS.cluster().heal();
        }

        assertEquals(0, lostDuringSlowPart.getCount(), "the watchdog lost the lease during the slow part");
        assertEquals(Outcome.ABANDONED, lost.outcome(), lost.toString());
        assertTrue(lost.leaseLost());
        assertTrue(lost.detail().contains("lost"), lost.detail());
        assertEquals(0, ledger.chargeCount("43"), "abandoned before the write");

        InvoiceCharger healthy = new InvoiceCharger(redlock, ledger, Step.sleep(Duration.ofMillis(100)));
        ChargeResult retry = healthy.charge("43", 9900);
        assertEquals(Outcome.CHARGED, retry.outcome(), retry.toString());
        assertTrue(retry.token() > lost.token());
        assertEquals(Outcome.ALREADY_CHARGED, healthy.charge("43", 9900).outcome());
        assertEquals(1, ledger.chargeCount("43"));
    }

    /** Twin of the test above without {@code lease.checkValid()} before the write. */
    @Test
    void twinWithoutTheValidityCheckTheChargeIsWrittenUnderALostLease() throws Exception {
        ChargeResult r;
        try {
            r = new InvoiceCharger(redlock, ledger, InvoiceChargeExample.LEASE_TTL,
                    InvoiceChargeExample.pauseMajorityDuring(REDIS.cluster(), Duration.ofMillis(1200)), Step.NONE, false)
                    .charge("43", 9900);
        } finally {
            REDIS.cluster().heal();
        }
        assertEquals(Outcome.CHARGED, r.outcome(), r.toString());
        assertTrue(r.leaseLost(), "written by a holder whose lease was already gone");
        assertEquals(1, ledger.chargeCount("43"));
    }

    @Test
    void concurrentChargersChargeOnce() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (Redlock other = Redlock.create(config)) {
            InvoiceCharger a = new InvoiceCharger(redlock, ledger, Step.sleep(Duration.ofMillis(200)));
            InvoiceCharger b = new InvoiceCharger(other, ledger, Step.sleep(Duration.ofMillis(200)));
            CountDownLatch go = new CountDownLatch(1);
            Future<ChargeResult> fa = pool.submit(() -> { go.await(); return a.charge("44", 500); });
            Future<ChargeResult> fb = pool.submit(() -> { go.await(); return b.charge("44", 500); });
            go.countDown();
            Set<Outcome> outcomes = Stream.of(fa.get(30, TimeUnit.SECONDS), fb.get(30, TimeUnit.SECONDS))
                    .map(ChargeResult::outcome).collect(Collectors.toSet());
            assertEquals(Set.of(Outcome.CHARGED, Outcome.ALREADY_CHARGED), outcomes);
            assertEquals(1, ledger.chargeCount("44"));
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aChargerPausedBetweenItsCheckAndItsWriteIsRefusedByTheUniqueKey() throws Exception {
        ChargeResult[] results = stalledChargerRace(ledger);
        assertEquals(Outcome.CHARGED, results[1].outcome(), "the second charger charged: " + results[1]);
        assertEquals(Outcome.ALREADY_CHARGED, results[0].outcome(), results[0].toString());
        assertTrue(results[0].leaseLost());
        assertEquals(1, ledger.chargeCount("46"));
    }

    /** Twin of the test above on a ledger without the unique key on invoice_id. */
    @Test
    void twinWithoutTheUniqueKeyTheInvoiceIsChargedTwice() throws Exception {
        Ledger loose = Ledger.inMemory(false);
        try {
            ChargeResult[] results = stalledChargerRace(loose);
            assertEquals(Outcome.CHARGED, results[1].outcome());
            assertEquals(Outcome.CHARGED, results[0].outcome(), "the stalled charger's write gets through");
            assertEquals(2, loose.chargeCount("46"), "double charge");
        } finally {
            loose.shutdown();
        }
    }

    /**
     * Charger 1 passes the validity check and then stalls before its write (a GC pause at the worst moment); its
     * lease is lost meanwhile (3 of 5 nodes paused, then healed), charger 2 takes the lock and charges; then charger
     * 1 writes. Returns {charger 1's result, charger 2's result}.
     */
    private ChargeResult[] stalledChargerRace(Ledger l) throws Exception {
        CountDownLatch firstLost = new CountDownLatch(1);
        CompletableFuture<Void> healed = new CompletableFuture<>();
        CountDownLatch secondDone = new CountDownLatch(1);
        Step stall = (id, lease) -> {
            lease.onLost(firstLost::countDown);
            try {
                for (int i = 0; i < 3; i++) REDIS.cluster().node(i).pause();
                assertTrue(firstLost.await(10, TimeUnit.SECONDS), "lease lost");
            } finally {
                REDIS.cluster().heal();
                healed.complete(null);
            }
            assertTrue(secondDone.await(30, TimeUnit.SECONDS));
        };
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (Redlock other = Redlock.create(config)) {
            InvoiceCharger first = new InvoiceCharger(redlock, l, InvoiceChargeExample.LEASE_TTL, Step.NONE, stall, true);
            CompletableFuture<ChargeResult> f1 = CompletableFuture.supplyAsync(() -> {
                try {
                    return first.charge("46", 700);
                } catch (Exception e) {
                    throw new CompletionException(e);
                }
            }, pool);
            CompletableFuture.anyOf(healed, f1).get(30, TimeUnit.SECONDS);   // throws if charger 1 failed first
            assertEquals(0, firstLost.getCount(), "charger 1's lease was lost");
            ChargeResult second;
            try {
                second = new InvoiceCharger(other, l, Step.NONE).charge("46", 700);
            } finally {
                secondDone.countDown();
            }
            return new ChargeResult[] {f1.get(30, TimeUnit.SECONDS), second};
        } finally {
            REDIS.cluster().heal();
            pool.shutdownNow();
        }
    }
}
