package dev.redlock.examples.invoice;

import dev.redlock.Lease;
import dev.redlock.LeaseLostException;
import dev.redlock.Redlock;
import dev.redlock.RedlockConfig;
import dev.redlock.examples.support.ExampleNodes;
import dev.redlock.testkit.RedisCluster;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Seed 003's {@code using()}: charge an invoice under {@link Redlock#withLock}, which extends the lease while the
 * slow part of the charge runs and signals a lost lease through {@link Lease#checkValid()}.
 *
 * <p>One charge, in order:
 * <ol>
 *   <li>already charged? then report {@link Outcome#ALREADY_CHARGED} (a retry never charges twice);</li>
 *   <li>the slow part (risk checks, talking to the payment provider...), while the watchdog extends the lease;</li>
 *   <li>{@code lease.checkValid()}: the abort signal. If the lease was lost meanwhile (the watchdog could not
 *       re-hold a quorum), it throws {@link LeaseLostException} and the charge is abandoned before its write
 *       ({@link Outcome#ABANDONED});</li>
 *   <li>the write: one row in {@code charges}, whose PRIMARY KEY on {@code invoice_id} makes the charge idempotent
 *       even when the lock fails (a pause between the check and the write): a second row is refused by the
 *       database, whoever tries.</li>
 * </ol>
 * The lock avoids wasted and concurrent work; the unique key is what makes "never twice" true. A real payment API
 * would get the invoice id as its idempotency key for the same reason.
 *
 * <p>{@code main} charges invoice 42, retries it, and then (on embedded nodes) charges invoice 43 while 3 of the 5
 * nodes are paused mid-charge, so the lease is lost and the charge abandoned; after healing, the retry charges it
 * once. Run: {@code mvn -q -B exec:java -pl redlock-examples
 * -Dexec.mainClass=dev.redlock.examples.invoice.InvoiceChargeExample}. Tested by {@code InvoiceChargeExampleIT}.
 */
public final class InvoiceChargeExample {
    /** Lease TTL of a charge; the watchdog extends it every third of that. */
    public static final Duration LEASE_TTL = Duration.ofMillis(600);

    private InvoiceChargeExample() {}

    /** How a charge ended. */
    public enum Outcome {
        /** This call wrote the charge. */
        CHARGED,
        /** The invoice was charged before (by an earlier call or a concurrent one); nothing written. */
        ALREADY_CHARGED,
        /** The lease was lost during the slow part; abandoned before the write, nothing written. Retry later. */
        ABANDONED
    }

    /**
     * The result of one {@link InvoiceCharger#charge} call.
     *
     * @param token        the fencing token of the lease the charge ran under
     * @param leaseLost    whether the lease was lost before the call ended (also after the write, for CHARGED)
     * @param detail       a human-readable explanation
     */
    public record ChargeResult(String invoiceId, Outcome outcome, long token, boolean leaseLost, String detail) {}

    /** A step of a charge that gets the invoice id and the lease, for example the slow part. */
    @FunctionalInterface
    public interface Step {
        void run(String invoiceId, Lease lease) throws Exception;

        /** A step that does nothing. */
        Step NONE = (id, lease) -> { };

        /** A step that just takes this long (the slow part of a charge). */
        static Step sleep(Duration d) {
            return (id, lease) -> Thread.sleep(d.toMillis());
        }
    }

    /** The charges table in an H2 database. */
    public static final class Ledger {
        private final String url;

        private Ledger(String url) {
            this.url = url;
        }

        /**
         * A new in-memory ledger. {@code uniqueInvoice} declares the PRIMARY KEY on {@code invoice_id}; the tests
         * turn it off to show what it prevents.
         */
        public static Ledger inMemory(boolean uniqueInvoice) throws SQLException {
            Ledger l = new Ledger("jdbc:h2:mem:ledger-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
            try (Connection c = l.connect(); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE charges (invoice_id VARCHAR(64) NOT NULL" + (uniqueInvoice ? " PRIMARY KEY" : "")
                        + ", amount_cents BIGINT NOT NULL, token BIGINT NOT NULL, charged_at TIMESTAMP NOT NULL)");
            }
            return l;
        }

        Connection connect() throws SQLException {
            return DriverManager.getConnection(url);
        }

        /** How many charges the invoice has (1 at most with the unique key). */
        public int chargeCount(String invoiceId) throws SQLException {
            try (Connection c = connect();
                 PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM charges WHERE invoice_id = ?")) {
                ps.setString(1, invoiceId);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getInt(1);
                }
            }
        }

        /** Writes the charge; false when the unique key says the invoice is already charged. */
        boolean insertCharge(String invoiceId, long amountCents, long token) throws SQLException {
            try (Connection c = connect(); PreparedStatement ps = c.prepareStatement(
                    "INSERT INTO charges (invoice_id, amount_cents, token, charged_at) VALUES (?, ?, ?, ?)")) {
                ps.setString(1, invoiceId);
                ps.setLong(2, amountCents);
                ps.setLong(3, token);
                ps.setTimestamp(4, Timestamp.from(Instant.now()));
                ps.executeUpdate();
                return true;
            } catch (SQLException e) {
                if (e.getSQLState() != null && e.getSQLState().startsWith("23")) return false;   // duplicate key
                throw e;
            }
        }

        /** Drops the in-memory database. */
        public void shutdown() throws SQLException {
            try (Connection c = connect(); Statement s = c.createStatement()) {
                s.execute("SHUTDOWN");
            }
        }
    }

    /** Charges invoices, one lock per invoice. Thread-safe. */
    public static final class InvoiceCharger {
        private final Redlock redlock;
        private final Ledger ledger;
        private final Duration ttl;
        private final Step slowPart;
        private final Step beforeWrite;
        private final boolean checkBeforeWrite;

        /**
         * @param slowPart         the slow part of a charge, run with the lock held
         * @param beforeWrite      runs after the validity check, right before the write (the tests use it to simulate
         *                         a process pause at the worst moment); {@link Step#NONE} normally
         * @param checkBeforeWrite whether to call {@code lease.checkValid()} before the write: always true, except
         *                         in the test that shows what that check prevents
         */
        public InvoiceCharger(Redlock redlock, Ledger ledger, Duration ttl, Step slowPart, Step beforeWrite,
                              boolean checkBeforeWrite) {
            this.redlock = Objects.requireNonNull(redlock);
            this.ledger = Objects.requireNonNull(ledger);
            this.ttl = Objects.requireNonNull(ttl);
            this.slowPart = Objects.requireNonNull(slowPart);
            this.beforeWrite = Objects.requireNonNull(beforeWrite);
            this.checkBeforeWrite = checkBeforeWrite;
        }

        public InvoiceCharger(Redlock redlock, Ledger ledger, Step slowPart) {
            this(redlock, ledger, LEASE_TTL, slowPart, Step.NONE, true);
        }

        /**
         * Charges the invoice at most once.
         *
         * @throws dev.redlock.LockUnavailableException when the lock could not be acquired (nothing done)
         * @throws Exception                            what the steps or the database threw
         */
        public ChargeResult charge(String invoiceId, long amountCents) throws Exception {
            AtomicReference<ChargeResult> written = new AtomicReference<>();
            AtomicReference<Long> token = new AtomicReference<>(-1L);
            try {
                return redlock.withLock("invoice:" + invoiceId, ttl, lease -> {
                    token.set(lease.fencingToken());
                    if (ledger.chargeCount(invoiceId) > 0) {
                        return new ChargeResult(invoiceId, Outcome.ALREADY_CHARGED, lease.fencingToken(), false,
                                "already charged; nothing to do");
                    }
                    slowPart.run(invoiceId, lease);
                    if (checkBeforeWrite) lease.checkValid();   // the abort signal: throws once the lease is lost
                    beforeWrite.run(invoiceId, lease);
                    boolean inserted = ledger.insertCharge(invoiceId, amountCents, lease.fencingToken());
                    ChargeResult r = new ChargeResult(invoiceId, inserted ? Outcome.CHARGED : Outcome.ALREADY_CHARGED,
                            lease.fencingToken(), !lease.isValid(), inserted ? "charged " + amountCents + " cents"
                            : "the unique key refused a second charge");
                    written.set(r);
                    return r;
                });
            } catch (LeaseLostException e) {
                ChargeResult r = written.get();
                if (r != null) {
                    // The write happened (or was refused by the unique key) and the lease was lost afterwards:
                    // report what the database did, not the lock.
                    return new ChargeResult(invoiceId, r.outcome(), r.token(), true, r.detail() + "; " + e.getMessage());
                }
                return new ChargeResult(invoiceId, Outcome.ABANDONED, token.get(), true,
                        "abandoned before the write: " + e.getMessage());
            }
        }
    }

    public static void main(String[] args) throws Exception {
        try (ExampleNodes nodes = ExampleNodes.fromArgs(args, 5)) {
            RedlockConfig config = config(nodes);
            Ledger ledger = Ledger.inMemory(true);
            try (Redlock redlock = Redlock.create(config)) {
                if (nodes.markFresh()) System.out.println("marked " + redlock.markNodesFresh() + " brand-new node(s) fresh");
                InvoiceCharger charger = new InvoiceCharger(redlock, ledger, Step.sleep(Duration.ofMillis(900)));

                print(charger.charge("42", 12_50));
                print(charger.charge("42", 12_50));   // a retry
                System.out.println("invoice 42 has " + ledger.chargeCount("42") + " charge(s)");

                RedisCluster cluster = nodes.cluster().orElse(null);
                if (cluster == null) {
                    System.out.println("(--nodes: skipping the lost-lease run, it needs embedded nodes to pause)");
                    return;
                }
                InvoiceCharger unlucky = new InvoiceCharger(redlock, ledger, LEASE_TTL,
                        pauseMajorityDuring(cluster, Duration.ofMillis(900)), Step.NONE, true);
                ChargeResult lost;
                try {
                    lost = unlucky.charge("43", 99_00);
                } finally {
                    cluster.heal();
                }
                print(lost);
                System.out.println("invoice 43 has " + ledger.chargeCount("43") + " charge(s) after the abandoned attempt");
                print(charger.charge("43", 99_00));   // the retry, nodes healed
                print(charger.charge("43", 99_00));
                System.out.println("invoice 43 has " + ledger.chargeCount("43") + " charge(s)");
                if (lost.outcome() != Outcome.ABANDONED || ledger.chargeCount("43") != 1 || ledger.chargeCount("42") != 1) {
                    throw new IllegalStateException("unexpected outcome: " + lost);
                }
            } finally {
                ledger.shutdown();
            }
        }
    }

    /**
     * A slow part during which 3 of the 5 nodes stop answering (SIGSTOP), so the watchdog cannot extend the lease.
     * The caller heals the cluster in a {@code finally}.
     */
    public static Step pauseMajorityDuring(RedisCluster cluster, Duration work) {
        return (id, lease) -> {
            for (int i = 0; i < cluster.size() / 2 + 1; i++) cluster.node(i).pause();
            System.out.println("  paused " + (cluster.size() / 2 + 1) + " of " + cluster.size()
                    + " nodes during the slow part of invoice " + id);
            Thread.sleep(work.toMillis());
        };
    }

    /** The config of the example: short node timeouts are the default; quick retries. */
    public static RedlockConfig config(ExampleNodes nodes) {
        return RedlockConfig.builder().nodes(nodes.uris())
                .retryCount(20).retryDelay(Duration.ofMillis(50)).retryJitter(Duration.ofMillis(25))
                .build();
    }

    private static void print(ChargeResult r) {
        System.out.println("invoice " + r.invoiceId() + ": " + r.outcome() + " (token " + r.token()
                + (r.leaseLost() ? ", lease lost" : "") + ") - " + r.detail());
    }
}
