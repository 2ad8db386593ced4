package dev.redlock.examples.transfer;

import dev.redlock.MultiLease;
import dev.redlock.Redlock;
import dev.redlock.RedlockConfig;
import dev.redlock.examples.support.ExampleNodes;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Transfers between two accounts under {@link Redlock#acquireAll}: both accounts are locked at once, all or nothing,
 * and each account's write is fenced with that account's token. Two workers transfer in opposite directions (one
 * locks {@code [a, b]}, the other {@code [b, a]}), the classic deadlock of two single locks taken in different
 * orders: here neither waits while holding anything, so both finish, the total is unchanged, and no fenced write is
 * refused.
 *
 * <p>Run: {@code mvn -q -B exec:java -pl redlock-examples
 * -Dexec.mainClass=dev.redlock.examples.transfer.TransferExample [-Dexec.args="--nodes redis://...,..."]}. Tested by
 * {@code TransferExampleIT}.
 */
public final class TransferExample {
    public static final int TRANSFERS_PER_WORKER = 20;
    public static final long OPENING_BALANCE = 1_000;

    private TransferExample() {}

    /** What the run left: the balances, the transfers done, the fenced writes refused (a stale token: none expected). */
    public record Outcome(long balanceA, long balanceB, int transfers, int refusedWrites) {}

    public static void main(String[] args) throws Exception {
        try (ExampleNodes nodes = ExampleNodes.fromArgs(args, 3)) {
            RedlockConfig config = config(nodes);
            if (nodes.markFresh()) {
                try (Redlock admin = Redlock.create(config)) {
                    admin.markNodesFresh();
                }
            }
            Outcome o = run(config);
            System.out.println(o.transfers() + " transfers in both directions; a=" + o.balanceA() + ", b="
                    + o.balanceB() + " (total " + (o.balanceA() + o.balanceB()) + "); fenced writes refused: "
                    + o.refusedWrites());
        }
    }

    /** The nodes, with retries enough for two workers that keep taking the same two accounts. */
    public static RedlockConfig config(ExampleNodes nodes) {
        return RedlockConfig.builder().nodes(nodes.uris()).retryCount(1_000).build();
    }

    /** An account store that refuses a write carrying a lower token than the last one it accepted for the account. */
    static final class Accounts {
        private final Map<String, long[]> rows = new HashMap<>();   // account -> {balance, last token}
        final AtomicInteger refused = new AtomicInteger();

        Accounts(String... names) {
            for (String n : names) rows.put(n, new long[] {OPENING_BALANCE, 0});
        }

        synchronized long balance(String account) {
            return rows.get(account)[0];
        }

        /** {@code UPDATE account SET balance = balance + delta, fence = token WHERE id = account AND fence <= token}. */
        synchronized boolean add(String account, long delta, long token) {
            long[] row = rows.get(account);
            if (token < row[1]) {
                refused.incrementAndGet();
                return false;
            }
            row[0] += delta;
            row[1] = token;
            return true;
        }
    }

    public static Outcome run(RedlockConfig config) throws Exception {
        Accounts accounts = new Accounts("a", "b");
        AtomicInteger done = new AtomicInteger();
        ExecutorService workers = Executors.newFixedThreadPool(2);
        try (Redlock redlock = Redlock.create(config)) {
            List<Future<?>> jobs = List.of(
                    workers.submit(() -> transfers(redlock, accounts, "a", "b", done)),
                    workers.submit(() -> transfers(redlock, accounts, "b", "a", done)));
            for (Future<?> job : jobs) job.get();
        } finally {
            workers.shutdownNow();
        }
        return new Outcome(accounts.balance("a"), accounts.balance("b"), done.get(), accounts.refused.get());
    }

    private static void transfers(Redlock redlock, Accounts accounts, String from, String to, AtomicInteger done) {
        for (int i = 0; i < TRANSFERS_PER_WORKER; i++) {
            // both accounts or neither; the order of the list does not matter
            try (MultiLease lease = redlock.acquireAll(List.of("account:" + from, "account:" + to), Duration.ofSeconds(5))) {
                lease.checkValid();                                   // before the side effects
                accounts.add(from, -1, lease.fencingToken("account:" + from));
                accounts.add(to, +1, lease.fencingToken("account:" + to));
                done.incrementAndGet();
            }
        }
    }
}
