package dev.redlock.fencing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link FencedTable} on H2: the fenced-store contract, then the table's own behaviour (SQL, inserts, names). */
class FencedTableTest extends FencedStoreContract {
    private static final FencedTable STRICT_JOBS = FencedTable.builder("jobs")
            .idColumn("id").fenceColumn("fence").valueColumns("result", "worker").strict(true).build();
    private static final FencedTable JOBS = FencedTable.builder("jobs")
            .idColumn("id").fenceColumn("fence").valueColumns("result", "worker").build();

    private String url;
    private Connection conn;
    private final List<Connection> opened = new CopyOnWriteArrayList<>();   // the contract's writers' connections

    @BeforeEach
    void setUp() throws SQLException {
        url = "jdbc:h2:mem:fenced-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
        conn = DriverManager.getConnection(url);
        try (Statement s = conn.createStatement()) {
            s.execute("CREATE TABLE jobs (id VARCHAR(64) PRIMARY KEY, result VARCHAR(200), worker VARCHAR(20), "
                    + "fence BIGINT NOT NULL DEFAULT 0)");
            s.execute("INSERT INTO jobs (id) VALUES ('job-1')");
        }
    }

    @AfterEach
    void tearDown() throws SQLException {
        for (Connection c : opened) c.close();
        try (Statement s = conn.createStatement()) {
            s.execute("SHUTDOWN");
        } finally {
            conn.close();
        }
    }

    @Test
    void aRejectionNamesTheRowAndChangesNothingInIt() throws SQLException {
        JOBS.update(conn, "job-1", 7, "seven", "B").orThrow();

        FencedWriteResult r = JOBS.update(conn, "job-1", 5, "five", "A");

        assertRow("job-1", "seven", 7);
        StaleTokenException e = assertThrows(StaleTokenException.class, r::orThrow);
        assertEquals("jobs[id=job-1]", e.target());
    }

    /** Fails if strict mode is loosened to {@code fence <= ?}, in its SQL or on the insert path. */
    @Test
    void strictModeSqlAndInsertPathRejectAnEqualToken() throws SQLException {
        FencedTable strict = FencedTable.builder("jobs").valueColumns("result", "worker").strict(true).build();
        assertTrue(strict.isStrict());
        assertEquals("UPDATE jobs SET result = ?, worker = ?, fence = ? WHERE id = ? AND fence < ?", strict.updateSql());
        strict.update(conn, "job-1", 7, "first", "A").orThrow();
        assertEquals(FencedWriteResult.Status.REJECTED_STALE,
                strict.updateOrInsert(conn, "job-1", 7, "insert path", "B").status());
        assertRow("job-1", "first", 7);
    }

    @Test
    void missingRowIsReportedNotInserted() throws SQLException {
        FencedWriteResult r = JOBS.update(conn, "job-404", 3, "x", "A");
        assertEquals(FencedWriteResult.Status.NO_ROW, r.status());
        assertEquals(OptionalLong.empty(), r.currentFence());
        assertThrows(IllegalStateException.class, r::orThrow);
        assertEquals(OptionalLong.empty(), JOBS.fence(conn, "job-404"));
    }

    @Test
    void updateOrInsertCreatesANewRowThenFencesIt() throws SQLException {
        FencedWriteResult first = JOBS.updateOrInsert(conn, "job-2", 10, "ten", "A");
        assertEquals(FencedWriteResult.Status.INSERTED, first.status());
        assertTrue(first.isApplied());
        assertRow("job-2", "ten", 10);

        assertEquals(FencedWriteResult.Status.REJECTED_STALE, JOBS.updateOrInsert(conn, "job-2", 9, "nine", "B").status());
        assertEquals(FencedWriteResult.Status.APPLIED, JOBS.updateOrInsert(conn, "job-2", 10, "ten'", "A").status());
        assertEquals(FencedWriteResult.Status.APPLIED, JOBS.updateOrInsert(conn, "job-2", 11, "eleven", "B").status());
        assertRow("job-2", "eleven", 11);
    }

    @Test
    void aLostInsertRaceFailsOnThePrimaryKeyAndTheRetryIsFenced() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (Connection a = DriverManager.getConnection(url); Connection b = DriverManager.getConnection(url)) {
            a.setAutoCommit(false);
            b.setAutoCommit(false);
            // A inserts job-9 with token 5 and has not committed yet.
            assertEquals(FencedWriteResult.Status.INSERTED, JOBS.updateOrInsert(a, "job-9", 5, "a", "A").status());
            // B does not see A's row, so it tries to insert too, and waits on the primary key.
            Future<SQLException> racer = pool.submit(() -> {
                try {
                    JOBS.updateOrInsert(b, "job-9", 6, "b", "B");
                    return null;
                } catch (SQLException e) {
                    return e;
                }
            });
            Thread.sleep(200);
            a.commit();
            SQLException lost = racer.get(30, TimeUnit.SECONDS);
            assertTrue(lost != null && lost.getSQLState().startsWith("23"), "B's insert fails loudly: " + lost);
            b.rollback();
            // The retry takes the fenced UPDATE path, where the higher token wins.
            assertEquals(FencedWriteResult.Status.APPLIED, JOBS.updateOrInsert(b, "job-9", 6, "b", "B").status());
            b.commit();
            assertEquals(FencedWriteResult.Status.REJECTED_STALE, JOBS.updateOrInsert(a, "job-9", 5, "a", "A").status());
            a.commit();
        } finally {
            pool.shutdownNow();
        }
        assertRow("job-9", "b", 6);
    }

    @Test
    void valuesAreBoundAsParametersNeverSpliced() throws SQLException {
        String payload = "x'; DROP TABLE jobs; --";
        JOBS.update(conn, "job-1", 1, payload, "A").orThrow();
        assertRow("job-1", payload, 1);
        String idPayload = "job-1' OR '1'='1";
        assertEquals(FencedWriteResult.Status.NO_ROW, JOBS.update(conn, idPayload, 2, "y", "A").status());
        assertRow("job-1", payload, 1);
        assertEquals("UPDATE jobs SET result = ?, worker = ?, fence = ? WHERE id = ? AND fence <= ?", JOBS.updateSql());
    }

    @ParameterizedTest
    @ValueSource(strings = {"jobs; DROP TABLE jobs", "jobs--", "jobs /* */", "\"jobs\"", "", " jobs", "jobs\n",
            "a.b.c", ".jobs", "1jobs", "jöbs", "jobs)"})
    void badTableNamesAreRejected(String bad) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> FencedTable.builder(bad).valueColumns("result").build());
        assertTrue(e.getMessage().startsWith("table must be"), e.getMessage());
        assertTrue(e.getMessage().contains("'" + bad + "'"), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"fence < 999999 OR 1=1 --", "fence;", "fe nce", "fence)", "`fence`", "fence'",
            "a234567890123456789012345678901234567890123456789012345678901234"})
    void badColumnNamesAreRejectedNamingTheField(String bad) {
        IllegalArgumentException fence = assertThrows(IllegalArgumentException.class,
                () -> FencedTable.builder("jobs").fenceColumn(bad).valueColumns("result").build());
        assertTrue(fence.getMessage().startsWith("fenceColumn must be an SQL identifier"), fence.getMessage());
        assertTrue(fence.getMessage().contains("'" + bad + "'"), fence.getMessage());

        IllegalArgumentException id = assertThrows(IllegalArgumentException.class,
                () -> FencedTable.builder("jobs").idColumn(bad).valueColumns("result").build());
        assertTrue(id.getMessage().startsWith("idColumn must be"), id.getMessage());

        IllegalArgumentException value = assertThrows(IllegalArgumentException.class,
                () -> FencedTable.builder("jobs").valueColumns("result", bad).build());
        assertTrue(value.getMessage().startsWith("valueColumns[1] must be"), value.getMessage());
        assertTrue(value.getMessage().contains("'" + bad + "'"), value.getMessage());
    }

    @Test
    void otherBuilderMistakesAreRejected() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> FencedTable.builder("jobs").build())
                .getMessage().startsWith("valueColumns must name"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> FencedTable.builder("jobs").valueColumns("FENCE").build()).getMessage().contains("'FENCE'"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> FencedTable.builder("jobs").idColumn("x").fenceColumn("x").valueColumns("r").build())
                .getMessage().startsWith("fenceColumn must differ"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> FencedTable.builder(null).valueColumns("r").build()).getMessage().contains("got null"));
        assertEquals("app.jobs", FencedTable.builder("app.jobs").valueColumns("r").build().table());
    }

    @Test
    void callMistakesAreRejected() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> JOBS.update(conn, "job-1", 0, "a", "b"))
                .getMessage().contains("token must be > 0"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> JOBS.update(conn, "job-1", 1, "only one"))
                .getMessage().contains("expected 2 value(s)"));
    }

    @Test
    void nullFenceFailsInsteadOfLookingStale() throws SQLException {
        try (Statement s = conn.createStatement()) {
            s.execute("CREATE TABLE loose (id INT PRIMARY KEY, v VARCHAR(10), fence BIGINT)");
            s.execute("INSERT INTO loose (id) VALUES (1)");
        }
        FencedTable loose = FencedTable.builder("loose").valueColumns("v").build();
        SQLException e = assertThrows(SQLException.class, () -> loose.update(conn, 1, 5, "x"));
        assertTrue(e.getMessage().contains("NULL fence"), e.getMessage());
    }

    @Test
    void nonUniqueIdFailsLoudly() throws SQLException {
        try (Statement s = conn.createStatement()) {
            s.execute("CREATE TABLE dup (id INT, v VARCHAR(10), fence BIGINT NOT NULL DEFAULT 0)");
            s.execute("INSERT INTO dup (id) VALUES (1), (1)");
        }
        FencedTable dup = FencedTable.builder("dup").valueColumns("v").build();
        SQLException e = assertThrows(SQLException.class, () -> dup.update(conn, 1, 5, "x"));
        assertEquals("21000", e.getSQLState());
    }

    /** Row {@code id} (inserted when missing, fence 0) over a connection of its own. */
    @Override
    Target target(String id) throws SQLException {
        Connection c = DriverManager.getConnection(url);
        opened.add(c);
        try (PreparedStatement ps = c.prepareStatement("MERGE INTO jobs (id) KEY (id) VALUES (?)")) {
            ps.setString(1, id);
            ps.executeUpdate();
        }
        return new Target() {
            @Override
            public FencedWriteResult write(String value, long token) throws SQLException {
                return JOBS.update(c, id, token, value, "w");
            }

            @Override
            public FencedWriteResult writeStrict(String value, long token) throws SQLException {
                return STRICT_JOBS.update(c, id, token, value, "w");
            }

            @Override
            public FencedValue read() throws SQLException {
                try (PreparedStatement ps = c.prepareStatement("SELECT result, fence FROM jobs WHERE id = ?")) {
                    ps.setString(1, id);
                    try (ResultSet rs = ps.executeQuery()) {
                        assertTrue(rs.next(), "row " + id);
                        return new FencedValue(rs.getString(1), rs.getLong(2));
                    }
                }
            }

            @Override
            public void writeUnfenced(String value, long token) throws SQLException {
                assertEquals(1, naiveUpdate(c, id, token, value), "the naive UPDATE accepts the stale token");
            }

            @Override
            public boolean strictByDefault() {
                return JOBS.isStrict();
            }
        };
    }

    static int naiveUpdate(Connection c, String id, long token, String result) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE jobs SET result = ?, fence = ? WHERE id = ?")) {
            ps.setString(1, result);
            ps.setLong(2, token);
            ps.setString(3, id);
            return ps.executeUpdate();
        }
    }

    private void assertRow(String id, String result, long fence) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("SELECT result, fence FROM jobs WHERE id = ?")) {
            ps.setString(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next(), "row " + id);
                if (result == null) assertNull(rs.getString(1));
                else assertEquals(result, rs.getString(1));
                assertEquals(fence, rs.getLong(2));
            }
        }
    }
}
