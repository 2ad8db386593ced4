package dev.redlock.fencing;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Fenced writes to rows of one SQL table: a row is written only with a fencing token at least as great as the token
 * it was last written with, so one lease (or one leader's term) can write as often as it needs while a superseded
 * holder, whose token is smaller, is refused. Every write is the single conditional statement
 * <pre>{@code
 * UPDATE <table> SET <col1> = ?, ..., <fenceColumn> = ? WHERE <idColumn> = ? AND <fenceColumn> <= ?
 * }</pre>
 * With {@link Builder#strict(boolean) strict(true)} the condition is {@code <fenceColumn> < ?}: one write per token,
 * a repeated token is refused too.
 * and "0 rows updated" is reported, never swallowed: as {@link FencedWriteResult.Status#REJECTED_STALE} (or
 * {@link FencedWriteResult.Status#NO_ROW}), or as a {@link StaleTokenException} from
 * {@link FencedWriteResult#orThrow()}.
 *
 * <pre>{@code
 * FencedTable jobs = FencedTable.builder("jobs").idColumn("id").fenceColumn("fence").valueColumns("result").build();
 * try (Lease lease = redlock.acquire("job:" + id, ttl)) {
 *     String result = compute();
 *     jobs.update(connection, id, lease.fencingToken(), result).orThrow();
 * }
 * }</pre>
 * A runnable, tested example: {@code dev.redlock.examples.worker.FencedJobWorkerExample} in {@code redlock-examples}.
 *
 * <p><b>What it guarantees.</b> The conditional UPDATE is one statement, so the database applies the check and the
 * write atomically per row (true at READ COMMITTED or stronger in H2, PostgreSQL, MySQL/InnoDB, Oracle, SQL Server:
 * a concurrent writer to the same row waits for the row lock and then re-evaluates {@code fence <= ?}). Hence a
 * token smaller than the stored fence (in strict mode: not greater) never overwrites the row, and the stored fence
 * never decreases. Accepting an equal token is safe because tokens strictly increase from holder to holder: only the
 * holder that was issued a token can present it. Values, ids and tokens are always bound as JDBC parameters; table and column names are checked
 * against a strict identifier pattern when the table is built, so no caller-supplied text is ever spliced into SQL.
 *
 * <p><b>What it does not guarantee.</b>
 * <ul>
 *   <li>It protects only writes that go through a fence check. Any other writer (a plain UPDATE, a migration, a
 *       DELETE followed by a re-insert, which forgets the fence) bypasses it.</li>
 *   <li>It does not commit. Statements run on the given connection in its current transaction, with its
 *       auto-commit setting; if your transaction rolls back, so does the write. Holding the row lock until commit
 *       serializes fenced writers to that row.</li>
 *   <li>The stored fence reported on a rejection is read by a second statement just after the UPDATE; another
 *       writer may have raised it in between. It is for diagnostics, the decision is the UPDATE's.</li>
 *   <li>The fence column must be {@code NOT NULL} (declare it {@code BIGINT NOT NULL DEFAULT 0}): a NULL fence makes
 *       {@code fence <= ?} unknown, so such a row would reject every write; this class then throws an
 *       {@link SQLException} instead of reporting a stale token.</li>
 *   <li>{@code idColumn} must be a primary key or unique: an UPDATE that matches more than one row throws an
 *       {@link SQLException} (SQLState 21000) after the database already changed those rows in your transaction,
 *       so roll it back.</li>
 * </ul>
 *
 * <p>Identifiers are used unquoted, so the database folds their case exactly as it does in your DDL; a reserved word
 * (for example {@code value} in H2) fails with an {@link SQLException}. Immutable and thread-safe; a
 * {@link Connection} is not, so do not share one between threads.
 */
public final class FencedTable {
    /** Unquoted SQL identifier: letter or underscore, then letters, digits, underscores; 63 characters at most. */
    static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,62}");
    private static final String IDENTIFIER_RULE = "an SQL identifier matching [A-Za-z_][A-Za-z0-9_]{0,62}";
    private static final int MAX_ATTEMPTS = 3;

    private final String table;
    private final String idColumn;
    private final String fenceColumn;
    private final List<String> valueColumns;
    private final boolean strict;
    private final String updateSql;
    private final String selectFenceSql;
    private final String insertSql;

    private FencedTable(String table, String idColumn, String fenceColumn, List<String> valueColumns, boolean strict) {
        this.table = table;
        this.idColumn = idColumn;
        this.fenceColumn = fenceColumn;
        this.valueColumns = List.copyOf(valueColumns);
        this.strict = strict;
        StringBuilder set = new StringBuilder();
        for (String c : valueColumns) set.append(c).append(" = ?, ");
        this.updateSql = "UPDATE " + table + " SET " + set + fenceColumn + " = ? WHERE " + idColumn + " = ? AND "
                + fenceColumn + (strict ? " < ?" : " <= ?");
        this.selectFenceSql = "SELECT " + fenceColumn + " FROM " + table + " WHERE " + idColumn + " = ?";
        List<String> cols = new ArrayList<>(valueColumns);
        cols.add(fenceColumn);
        cols.add(idColumn);
        this.insertSql = "INSERT INTO " + table + " (" + String.join(", ", cols) + ") VALUES ("
                + String.join(", ", cols.stream().map(c -> "?").toList()) + ")";
    }

    /**
     * Starts a table description. {@code idColumn} defaults to {@code id}, {@code fenceColumn} to {@code fence};
     * at least one value column is required.
     *
     * @param table a table name, optionally schema-qualified ({@code schema.table}); validated in {@link Builder#build()}
     */
    public static Builder builder(String table) {
        return new Builder(table);
    }

    public String table() {
        return table;
    }

    public String idColumn() {
        return idColumn;
    }

    public String fenceColumn() {
        return fenceColumn;
    }

    /** The columns {@code update}/{@code updateOrInsert} write, in the order their values are passed. */
    public List<String> valueColumns() {
        return valueColumns;
    }

    /** True when a token must be strictly greater than the stored fence (one write per token). */
    public boolean isStrict() {
        return strict;
    }

    /** The guarded statement, with every value, the id and the token as {@code ?} parameters. */
    public String updateSql() {
        return updateSql;
    }

    /**
     * Writes {@code values} to the row {@code id} if and only if {@code token} is at least its fence (strict mode:
     * greater than its fence), and sets the fence to {@code token}.
     *
     * @param values one value per {@link #valueColumns()}, in that order ({@code null} allowed, bound as SQL NULL)
     * @return {@code APPLIED}, {@code REJECTED_STALE} (nothing written) or {@code NO_ROW} (nothing written)
     * @throws IllegalArgumentException when {@code token <= 0} or the number of values is wrong
     * @throws SQLException             on a database error, a NULL fence, or when the id matched several rows
     */
    public FencedWriteResult update(Connection connection, Object id, long token, Object... values) throws SQLException {
        return write(connection, id, token, values, false);
    }

    /**
     * Like {@link #update}, but when no row with {@code id} exists, inserts one with these values and
     * {@code token} as its fence ({@code INSERTED}).
     *
     * <p>Semantics of the insert: a missing row counts as "fence below every token", so the first writer creates it
     * whatever its token; from then on the row is fenced as usual. If two writers insert the same new id at once,
     * the primary-key/unique constraint on {@code idColumn} makes one insert fail with an {@link SQLException}
     * (SQLState class 23); retry the call and it takes the fenced UPDATE path, where the higher token wins. Without
     * such a constraint both inserts could succeed and the row would be duplicated: declare one. Never delete
     * fenced rows you may write again: a re-insert starts the fence over (keep a tombstone instead).
     *
     * @param values one value per {@link #valueColumns()}, in that order
     * @return {@code APPLIED}, {@code INSERTED} or {@code REJECTED_STALE}
     * @throws IllegalArgumentException when {@code token <= 0} or the number of values is wrong
     * @throws SQLException             on a database error (including a lost insert race, see above), a NULL fence,
     *                                  or when the id matched several rows
     */
    public FencedWriteResult updateOrInsert(Connection connection, Object id, long token, Object... values)
            throws SQLException {
        return write(connection, id, token, values, true);
    }

    /**
     * The fence currently stored for {@code id}, or empty when there is no such row.
     *
     * @throws SQLException on a database error or a NULL fence
     */
    public OptionalLong fence(Connection connection, Object id) throws SQLException {
        Objects.requireNonNull(connection, "connection");
        Objects.requireNonNull(id, "id");
        try (PreparedStatement ps = connection.prepareStatement(selectFenceSql)) {
            ps.setObject(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) return OptionalLong.empty();
                long f = rs.getLong(1);
                if (rs.wasNull()) {
                    throw new SQLException(target(id) + " has a NULL " + fenceColumn + "; declare the column "
                            + "NOT NULL DEFAULT 0 so fenced writes can compare against it");
                }
                return OptionalLong.of(f);
            }
        }
    }

    private FencedWriteResult write(Connection connection, Object id, long token, Object[] values, boolean insert)
            throws SQLException {
        Objects.requireNonNull(connection, "connection");
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(values, "values");
        if (token <= 0) throw new IllegalArgumentException("token must be > 0 (every lease token is), got " + token);
        if (values.length != valueColumns.size()) {
            throw new IllegalArgumentException("expected " + valueColumns.size() + " value(s) for " + valueColumns
                    + ", got " + values.length);
        }
        String target = target(id);
        for (int attempt = 1; ; attempt++) {
            int rows = runUpdate(connection, id, token, values);
            if (rows == 1) return FencedWriteResult.applied(target, token);
            if (rows > 1) {
                throw new SQLException("fenced UPDATE matched " + rows + " rows for " + target + "; " + idColumn
                        + " must be a primary key or unique (roll back: the rows were changed)", "21000");
            }
            OptionalLong current = fence(connection, id);
            if (current.isEmpty()) {
                if (!insert) return FencedWriteResult.noRow(target, token);
                if (runInsert(connection, id, token, values) == 1) return FencedWriteResult.inserted(target, token);
            } else if (strict ? current.getAsLong() >= token : current.getAsLong() > token) {
                return FencedWriteResult.rejected(target, token, current.getAsLong());
            }
            // The row appeared (or its fence changed) between our UPDATE and the read: decide again.
            if (attempt == MAX_ATTEMPTS) {
                throw new SQLException("fenced write to " + target + " with token " + token + " could not be decided: "
                        + "the row changed concurrently " + MAX_ATTEMPTS + " times (is something writing "
                        + fenceColumn + " without a fence check?)");
            }
        }
    }

    private int runUpdate(Connection connection, Object id, long token, Object[] values) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(updateSql)) {
            int i = 1;
            for (Object v : values) bind(ps, i++, v);
            ps.setLong(i++, token);
            ps.setObject(i++, id);
            ps.setLong(i, token);
            return ps.executeUpdate();
        }
    }

    private int runInsert(Connection connection, Object id, long token, Object[] values) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(insertSql)) {
            int i = 1;
            for (Object v : values) bind(ps, i++, v);
            ps.setLong(i++, token);
            ps.setObject(i, id);
            return ps.executeUpdate();
        }
    }

    private static void bind(PreparedStatement ps, int index, Object value) throws SQLException {
        if (value == null) ps.setNull(index, Types.NULL);
        else ps.setObject(index, value);
    }

    private String target(Object id) {
        return table + "[" + idColumn + "=" + id + "]";
    }

    @Override
    public String toString() {
        return "FencedTable[" + updateSql + "]";
    }

    /** Describes the table; reusable, not thread-safe. */
    public static final class Builder {
        private final String table;
        private String idColumn = "id";
        private String fenceColumn = "fence";
        private List<String> valueColumns = List.of();
        private boolean strict;

        private Builder(String table) {
            this.table = table;
        }

        /** The primary-key (or unique) column that names a row; default {@code id}. */
        public Builder idColumn(String idColumn) {
            this.idColumn = idColumn;
            return this;
        }

        /** The {@code BIGINT NOT NULL} column holding the last accepted token; default {@code fence}. */
        public Builder fenceColumn(String fenceColumn) {
            this.fenceColumn = fenceColumn;
            return this;
        }

        /** The columns a write sets, in the order values are passed; at least one. */
        public Builder valueColumns(String... columns) {
            this.valueColumns = new ArrayList<>(List.of(Objects.requireNonNull(columns, "columns")));
            return this;
        }

        /**
         * {@code true}: a token must be strictly greater than the stored fence, so each token writes a row at most
         * once ({@code fence < ?}). Default {@code false}: a token equal to the stored fence is accepted too
         * ({@code fence <= ?}), so a lease or a leader's term can write many times; a smaller token is always refused.
         */
        public Builder strict(boolean strict) {
            this.strict = strict;
            return this;
        }

        /** Same as {@link #valueColumns(String...)}. */
        public Builder valueColumns(List<String> columns) {
            this.valueColumns = new ArrayList<>(Objects.requireNonNull(columns, "columns"));
            return this;
        }

        /**
         * Validates every name and returns an immutable table description.
         *
         * @throws IllegalArgumentException naming the field and the offending identifier when a name is not a plain
         *                                  SQL identifier, when no value column is given, or when a column repeats
         */
        public FencedTable build() {
            String t = checkTable(table);
            String id = checkIdentifier("idColumn", idColumn);
            String fence = checkIdentifier("fenceColumn", fenceColumn);
            if (valueColumns.isEmpty()) {
                throw new IllegalArgumentException("valueColumns must name at least one column to write");
            }
            Set<String> seen = new HashSet<>();
            seen.add(id.toLowerCase(Locale.ROOT));
            if (!seen.add(fence.toLowerCase(Locale.ROOT))) {
                throw new IllegalArgumentException("fenceColumn must differ from idColumn, both are '" + fence + "'");
            }
            List<String> cols = new ArrayList<>();
            for (int i = 0; i < valueColumns.size(); i++) {
                String c = checkIdentifier("valueColumns[" + i + "]", valueColumns.get(i));
                if (!seen.add(c.toLowerCase(Locale.ROOT))) {
                    throw new IllegalArgumentException("valueColumns[" + i + "] repeats column '" + c
                            + "' (value columns must be distinct and differ from idColumn and fenceColumn)");
                }
                cols.add(c);
            }
            return new FencedTable(t, id, fence, cols, strict);
        }

        private static String checkTable(String name) {
            if (name != null) {
                String[] parts = name.split("\\.", -1);
                if (parts.length <= 2 && Arrays.stream(parts).allMatch(p -> IDENTIFIER.matcher(p).matches())) {
                    return name;
                }
            }
            throw new IllegalArgumentException("table must be " + IDENTIFIER_RULE + ", optionally schema-qualified "
                    + "(schema.table), got " + quote(name));
        }

        private static String checkIdentifier(String field, String name) {
            if (name == null || !IDENTIFIER.matcher(name).matches()) {
                throw new IllegalArgumentException(field + " must be " + IDENTIFIER_RULE + ", got " + quote(name));
            }
            return name;
        }

        private static String quote(String s) {
            return s == null ? "null" : "'" + s + "'";
        }
    }
}
