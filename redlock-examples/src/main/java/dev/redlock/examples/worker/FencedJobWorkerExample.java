package dev.redlock.examples.worker;

import dev.redlock.Lease;
import dev.redlock.Redlock;
import dev.redlock.RedlockConfig;
import dev.redlock.examples.support.ExampleNodes;
import dev.redlock.fencing.FencedTable;
import dev.redlock.fencing.FencedWriteResult;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Seed 001, the experiment that shows why a lock needs a fencing token: two workers process the same job.
 *
 * <ol>
 *   <li>Worker A takes a 200 ms lease on {@code job-1}, checks it is valid, computes its result, and then stalls for
 *       500 ms (a GC pause, a stopped VM): its lease expires while it is frozen, and it is not told.</li>
 *   <li>Worker B takes the lease (its token is greater), computes and writes its result, and releases.</li>
 *   <li>A wakes up still believing it holds the lock and writes its result with its old token.</li>
 * </ol>
 * With the fenced store (the {@link FencedTable} pattern in its strict, one-write-per-token mode: {@code UPDATE jobs
 * SET result = ?, fence = ? WHERE id = ? AND fence < ?}) A's late write is rejected and the stored result is B's; the
 * default mode ({@code fence <= ?}, many writes per lease) rejects it too, since A's token is smaller than B's. With the naive store, the same UPDATE
 * without {@code AND fence < ?}, A's write gets through: the stored result is A's stale one and the fence went
 * backwards. Both runs use a real H2 database and real redis-server processes (or {@code --nodes}).
 *
 * <p>Run: {@code mvn -q -B exec:java -pl redlock-examples
 * -Dexec.mainClass=dev.redlock.examples.worker.FencedJobWorkerExample [-Dexec.args="--nodes redis://...,..."]}.
 * Tested by {@code FencedJobWorkerExampleIT}.
 */
public final class FencedJobWorkerExample {
    public static final String JOB_ID = "job-1";
    public static final Duration LEASE_A = Duration.ofMillis(200);
    public static final Duration STALL_A = Duration.ofMillis(500);
    public static final Duration LEASE_B = Duration.ofSeconds(5);

    private FencedJobWorkerExample() {}

    /** Where workers put a job's result. */
    public interface ResultStore {
        /** Writes the result with the writer's fencing token; true when it was stored. */
        boolean write(Connection c, String jobId, String result, long token) throws SQLException;

        String name();
    }

    /**
     * The fenced store: {@code UPDATE ... WHERE id = ? AND fence < ?}, a stale token is rejected. Strict mode: each
     * worker writes its result once, so a repeated token is refused too.
     */
    public static final class FencedStore implements ResultStore {
        private static final FencedTable JOBS = FencedTable.builder("jobs")
                .idColumn("id").fenceColumn("fence").valueColumns("result").strict(true).build();

        @Override
        public boolean write(Connection c, String jobId, String result, long token) throws SQLException {
            FencedWriteResult r = JOBS.update(c, jobId, token, result);
            System.out.println("    " + r);
            return r.isApplied();
        }

        @Override
        public String name() {
            return "fenced store (" + JOBS.updateSql() + ")";
        }
    }

    /** DO NOT DO THIS: the same UPDATE without {@code AND fence < ?}. It exists to show what the check prevents. */
    public static final class NaiveStore implements ResultStore {
        static final String SQL = "UPDATE jobs SET result = ?, fence = ? WHERE id = ?";

        @Override
        public boolean write(Connection c, String jobId, String result, long token) throws SQLException {
            try (PreparedStatement ps = c.prepareStatement(SQL)) {
                ps.setString(1, result);
                ps.setLong(2, token);
                ps.setString(3, jobId);
                int rows = ps.executeUpdate();
                System.out.println("    " + rows + " row(s) updated");
                return rows == 1;
            }
        }

        @Override
        public String name() {
            return "naive store (" + SQL + ")";
        }
    }

    /**
     * What one run observed.
     *
     * @param tokenA             A's fencing token
     * @param tokenB             B's fencing token (greater than A's)
     * @param aValidBeforeStall  A's lease was valid when A checked it, right before the stall
     * @param aValidAtWrite      A's lease was still valid when A wrote (false: it expired during the stall)
     * @param bWriteApplied      B's write was stored
     * @param aWriteApplied      A's late write was stored (false with the fenced store)
     * @param storedResult       the job's result at the end
     * @param storedFence        the job's fence at the end
     * @param bAcquiredAfterMs   how long after A's acquire B got the lease
     */
    public record Outcome(long tokenA, long tokenB, boolean aValidBeforeStall, boolean aValidAtWrite,
                          boolean bWriteApplied, boolean aWriteApplied, String storedResult, long storedFence,
                          long bAcquiredAfterMs) {
        public static final String RESULT_A = "result computed by worker A";
        public static final String RESULT_B = "result computed by worker B";

        /** True when the stored result is the one of the last lease holder. */
        public boolean correct() {
            return RESULT_B.equals(storedResult) && storedFence == tokenB;
        }
    }

    public static void main(String[] args) throws Exception {
        try (ExampleNodes nodes = ExampleNodes.fromArgs(args, 5)) {
            RedlockConfig config = config(nodes);
            if (nodes.markFresh()) {
                try (Redlock admin = Redlock.create(config)) {
                    System.out.println("marked " + admin.markNodesFresh() + " brand-new node(s) fresh (amnesia guard)");
                }
            }
            Outcome fenced = run(config, new FencedStore());
            Outcome naive = run(config, new NaiveStore());
            System.out.println();
            System.out.println("fenced store: stored '" + fenced.storedResult() + "' (fence " + fenced.storedFence()
                    + ") -> " + (fenced.correct() ? "CORRECT, A's late write was rejected" : "WRONG"));
            System.out.println("naive store:  stored '" + naive.storedResult() + "' (fence " + naive.storedFence()
                    + ") -> " + (naive.correct() ? "correct (A's write did not arrive late?)"
                    : "WRONG, A's stale write overwrote B's and the fence went back from " + naive.tokenB() + " to "
                    + naive.storedFence()));
            if (!fenced.correct()) throw new IllegalStateException("the fenced run stored a stale result: " + fenced);
        }
    }

    /** The config the workers use: retries frequent enough for B to get the lease soon after A's expired. */
    public static RedlockConfig config(ExampleNodes nodes) {
        return RedlockConfig.builder().nodes(nodes.uris())
                .retryCount(100).retryDelay(Duration.ofMillis(20)).retryJitter(Duration.ofMillis(10))
                .build();
    }

    /**
     * Runs the experiment once on a fresh in-memory H2 database, with two workers that each have their own
     * {@link Redlock} (their own connections to every node), and returns what happened.
     */
    public static Outcome run(RedlockConfig config, ResultStore store) throws Exception {
        System.out.println();
        System.out.println("== " + store.name());
        String url = "jdbc:h2:mem:jobs-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
        try (Connection admin = DriverManager.getConnection(url)) {
            try (Statement s = admin.createStatement()) {
                s.execute("CREATE TABLE jobs (id VARCHAR(64) PRIMARY KEY, result VARCHAR(200), "
                        + "fence BIGINT NOT NULL DEFAULT 0)");
            }
            try (PreparedStatement ps = admin.prepareStatement("INSERT INTO jobs (id) VALUES (?)")) {
                ps.setString(1, JOB_ID);
                ps.executeUpdate();
            }
            try (Redlock workerA = Redlock.create(config); Redlock workerB = Redlock.create(config);
                 Connection dbA = DriverManager.getConnection(url); Connection dbB = DriverManager.getConnection(url)) {
                return experiment(workerA, workerB, dbA, dbB, store, admin);
            } finally {
                try (Statement s = admin.createStatement()) {
                    s.execute("SHUTDOWN");
                }
            }
        }
    }

    private static Outcome experiment(Redlock workerA, Redlock workerB, Connection dbA, Connection dbB,
                                      ResultStore store, Connection admin) throws Exception {
        CompletableFuture<Void> aHolds = new CompletableFuture<>();
        CountDownLatch bWrote = new CountDownLatch(1);
        ExecutorService threadA = Executors.newSingleThreadExecutor(r -> new Thread(r, "worker-A"));
        try {
            return experiment(workerA, workerB, dbA, dbB, store, admin, aHolds, bWrote, threadA);
        } finally {
            threadA.shutdownNow();
        }
    }

    private static Outcome experiment(Redlock workerA, Redlock workerB, Connection dbA, Connection dbB,
                                      ResultStore store, Connection admin, CompletableFuture<Void> aHolds,
                                      CountDownLatch bWrote, ExecutorService threadA) throws Exception {
        long t0 = System.nanoTime();
        CompletableFuture<long[]> a = CompletableFuture.supplyAsync(() -> {
            try (Lease lease = workerA.acquire("job:" + JOB_ID, LEASE_A)) {
                log(t0, "A acquired the lease, token " + lease.fencingToken() + ", ttl " + LEASE_A.toMillis() + " ms");
                aHolds.complete(null);
                String result = Outcome.RESULT_A;
                lease.checkValid();   // passes: A is still within its validity here...
                boolean validBefore = lease.isValid();
                log(t0, "A checked its lease (valid) and stalls " + STALL_A.toMillis() + " ms (GC pause)");
                Thread.sleep(STALL_A.toMillis());
                // So that the run is deterministic on a loaded machine, A's stall also lasts until B has written.
                if (!bWrote.await(30, TimeUnit.SECONDS)) throw new IllegalStateException("B never wrote");
                boolean validAtWrite = lease.isValid();
                log(t0, "A wakes up (lease valid: " + validAtWrite + ", but A does not look) and writes with token "
                        + lease.fencingToken());
                boolean applied = store.write(dbA, JOB_ID, result, lease.fencingToken());
                return new long[] {lease.fencingToken(), validBefore ? 1 : 0, validAtWrite ? 1 : 0, applied ? 1 : 0};
            } catch (Exception e) {
                throw new IllegalStateException("worker A failed", e);
            }
        }, threadA);
        CompletableFuture.anyOf(aHolds, a).get(30, TimeUnit.SECONDS);   // A holds the lease, or A failed (throws)
        long tokenB;
        boolean bApplied;
        long bAcquiredAfter;
        try (Lease lease = workerB.acquire("job:" + JOB_ID, LEASE_B)) {
            bAcquiredAfter = (System.nanoTime() - t0) / 1_000_000;
            tokenB = lease.fencingToken();
            log(t0, "B acquired the lease, token " + tokenB);
            lease.checkValid();
            bApplied = store.write(dbB, JOB_ID, Outcome.RESULT_B, tokenB);
            log(t0, "B wrote its result: " + (bApplied ? "applied" : "rejected"));
        } finally {
            bWrote.countDown();
        }
        long[] ra = a.get(60, TimeUnit.SECONDS);
        log(t0, "A's write: " + (ra[3] == 1 ? "APPLIED" : "REJECTED"));
        String stored;
        long fence;
        try (PreparedStatement ps = admin.prepareStatement("SELECT result, fence FROM jobs WHERE id = ?")) {
            ps.setString(1, JOB_ID);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                stored = rs.getString(1);
                fence = rs.getLong(2);
            }
        }
        log(t0, "stored: '" + stored + "', fence " + fence);
        return new Outcome(ra[0], tokenB, ra[1] == 1, ra[2] == 1, bApplied, ra[3] == 1, stored, fence, bAcquiredAfter);
    }

    private static void log(long t0, String msg) {
        System.out.printf("  %6.1f ms  %s%n", (System.nanoTime() - t0) / 1e6, msg);
    }
}
