import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Joins PIT runs over the same mutants into a before/after table, mutant by mutant: "before" is the first
 * mutations.csv (redlock-core's own tests), every further one adds a test set (redlock-testing's simulator tests, ...),
 * and a mutant counts as killed after when any run so far killed it. PIT stops a mutant at its first killing test,
 * so this is what one run over the union of the test sets reports, except for a mutant one set kills and another
 * times out on (counted killed here; a union run could report either).
 *
 * <p>PIT's CSV names a mutant by class, mutator, method and line; two mutants of one mutator on one line (two
 * comparisons) share that name. Within such a group the runs are paired killed-with-killed first, which counts the
 * fewest kills the union can have; the groups where the pairing could matter are counted and printed with how many
 * kills the table may be short, so it says when it is a lower bound and by how much.
 *
 * <p>An added run may cover some classes only (PIT's {@code -DexcludedClasses}, to show what one new test bought);
 * the other classes keep the column before it.
 *
 * <p>Usage: {@code java mutation/PitMerge.java <before mutations.csv> <added mutations.csv>... [--survivors]}.
 * Prints a Markdown table per outer class (and, with --survivors, the mutants no run killed).
 */
public class PitMerge {

    enum Status {
        KILLED, TIMED_OUT, MEMORY_ERROR, RUN_ERROR, SURVIVED, NO_COVERAGE;

        boolean detected() {
            return ordinal() <= RUN_ERROR.ordinal();
        }
    }

    record Mutant(String cls, String mutator, String method, int line, Status status) {
        String key() {
            return cls + "|" + mutator + "|" + method + "|" + line;
        }

        String outer() {
            int i = cls.indexOf('$');
            return (i < 0 ? cls : cls.substring(0, i)).replace("dev.redlock.", "");
        }
    }

    static Map<String, List<Mutant>> read(Path csv) throws IOException {
        Map<String, List<Mutant>> byKey = new LinkedHashMap<>();
        for (String row : Files.readAllLines(csv)) {
            if (row.isBlank()) continue;
            String[] f = row.split(",", 7);
            Mutant m = new Mutant(f[1], f[2].substring(f[2].lastIndexOf('.') + 1), f[3], Integer.parseInt(f[4]),
                    Status.valueOf(f[5]));
            byKey.computeIfAbsent(m.key(), k -> new ArrayList<>()).add(m);
        }
        byKey.values().forEach(g -> g.sort(Comparator.comparing(Mutant::status)));
        return byKey;
    }

    /** Counts of one column of the table for one class. */
    static final class Counts {
        int mutants, killed, survived, noCoverage, timedOut;

        void add(Status s) {
            mutants++;
            if (s.detected()) killed++;
            if (s == Status.SURVIVED) survived++;
            if (s == Status.NO_COVERAGE) noCoverage++;
            if (s == Status.TIMED_OUT) timedOut++;
        }

        String row() {
            return mutants + " | " + killed + " | " + survived + " | " + noCoverage + " | " + pct() + " | " + timedOut;
        }

        String pct() {
            return mutants == 0 ? "-" : Math.round(100.0 * killed / mutants) + " %";
        }
    }

    static Status union(Status a, Status b) {
        if (a == Status.KILLED || b == Status.KILLED) return Status.KILLED;
        if (a.detected()) return a;
        if (b.detected()) return b;
        return a == Status.SURVIVED || b == Status.SURVIVED ? Status.SURVIVED : Status.NO_COVERAGE;
    }

    public static void main(String[] args) throws IOException {
        List<Path> csvs = new ArrayList<>();
        boolean survivors = false;
        for (String a : args) {
            if (a.equals("--survivors")) survivors = true;
            else csvs.add(Path.of(a));
        }
        if (csvs.size() < 2) {
            System.err.println("usage: java mutation/PitMerge.java <before mutations.csv> <added mutations.csv>... "
                    + "[--survivors]");
            System.exit(2);
        }
        Map<String, List<Mutant>> acc = read(csvs.get(0));
        int columns = csvs.size();
        Map<String, Counts[]> table = new TreeMap<>();
        Counts[] total = newCounts(columns);
        Counts[] alone = newCounts(columns);
        acc.values().forEach(g -> g.forEach(m -> {
            table.computeIfAbsent(m.outer(), k -> newCounts(columns))[0].add(m.status());
            total[0].add(m.status());
        }));
        int ambiguous = 0;
        long slack = 0;
        Map<Integer, Set<String>> partial = new TreeMap<>();
        for (int c = 1; c < columns; c++) {
            Map<String, List<Mutant>> added = read(csvs.get(c));
            if (!acc.keySet().containsAll(added.keySet())) {
                throw new IllegalStateException(csvs.get(c) + " mutated other code than " + csvs.get(0)
                        + " (rebuild both from the same sources)");
            }
            Set<String> rerun = new TreeSet<>();
            added.values().forEach(g -> g.forEach(m -> rerun.add(m.outer())));
            if (rerun.size() < table.size()) partial.put(c, rerun);
            Map<String, List<Mutant>> next = new LinkedHashMap<>();
            for (Map.Entry<String, List<Mutant>> e : acc.entrySet()) {
                List<Mutant> before = e.getValue();
                // a run over some classes only (-DexcludedClasses): the others keep what the runs before found
                List<Mutant> more = added.getOrDefault(e.getKey(), before);
                if (before.size() != more.size()) {
                    throw new IllegalStateException("mutant counts differ at " + e.getKey());
                }
                long killedBefore = before.stream().filter(m -> m.status().detected()).count();
                long killedMore = more.stream().filter(m -> m.status().detected()).count();
                if (killedBefore > 0 && killedMore > 0 && killedBefore < before.size() && killedMore < more.size()) {
                    ambiguous++;
                    slack += Math.min(before.size(), killedBefore + killedMore) - Math.max(killedBefore, killedMore);
                }
                List<Mutant> merged = new ArrayList<>();
                for (int i = 0; i < before.size(); i++) {
                    Mutant b = before.get(i);
                    Status s = union(b.status(), more.get(i).status());
                    merged.add(new Mutant(b.cls(), b.mutator(), b.method(), b.line(), s));
                    table.computeIfAbsent(b.outer(), k -> newCounts(columns))[c].add(s);
                    total[c].add(s);
                    if (added.containsKey(e.getKey())) alone[c].add(more.get(i).status());
                }
                merged.sort(Comparator.comparing(Mutant::status));
                next.put(e.getKey(), merged);
            }
            acc = next;
        }
        StringBuilder head = new StringBuilder("| class | before: mutants | killed | survived | no coverage | killed % "
                + "| timed out |");
        StringBuilder rule = new StringBuilder("|---|---|---|---|---|---|---|");
        for (int c = 1; c < columns; c++) {
            String tag = columns == 2 ? "after" : "after " + c;
            head.append(" ").append(tag).append(": killed | survived | no coverage | killed % | timed out |");
            rule.append("---|---|---|---|---|");
        }
        System.out.println(head);
        System.out.println(rule);
        table.forEach((cls, counts) -> System.out.println(row("`" + cls + "`", counts)));
        System.out.println(row("**all**", total));
        for (int c = 1; c < columns; c++) {
            System.out.println();
            System.out.println(csvs.get(c) + " alone: " + alone[c].killed + " of " + alone[c].mutants + " killed ("
                    + alone[c].pct() + "), " + alone[c].timedOut + " by time-out, " + alone[c].survived
                    + " survived, " + alone[c].noCoverage + " without coverage");
        }
        partial.forEach((c, classes) -> System.out.println(csvs.get(c) + " re-ran " + String.join(", ", classes)
                + " only; the other classes keep the column before"));
        System.out.println(ambiguous == 0
                ? "every mutant matched one to one: the after columns are exact"
                : ambiguous + " groups of same-named mutants were killed partly by each run: the after columns are "
                        + "a lower bound, at most " + slack + " kills short");
        if (survivors) {
            System.out.println();
            System.out.println("Not killed after the last run (class, method, line, mutator, status):");
            acc.values().stream().flatMap(List::stream).filter(m -> !m.status().detected())
                    .sorted(Comparator.comparing(Mutant::cls).thenComparingInt(Mutant::line))
                    .forEach(m -> System.out.println("  " + m.cls().replace("dev.redlock.", "") + " " + m.method()
                            + ":" + m.line() + " " + m.mutator() + " " + m.status()));
        }
    }

    static Counts[] newCounts(int columns) {
        Counts[] c = new Counts[columns];
        for (int i = 0; i < columns; i++) c[i] = new Counts();
        return c;
    }

    static String row(String name, Counts[] counts) {
        StringBuilder r = new StringBuilder("| " + name + " | " + counts[0].row() + " |");
        for (int c = 1; c < counts.length; c++) {
            Counts k = counts[c];
            r.append(" ").append(k.killed).append(" | ").append(k.survived).append(" | ").append(k.noCoverage)
                    .append(" | ").append(k.pct()).append(" | ").append(k.timedOut).append(" |");
        }
        return r.toString();
    }
}
