import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Applies each hand-written semantic mutant of {@code mutation/semantic-mutants.txt} to redlock-core in turn,
 * rebuilds the core, and runs two layers against it: (a) the chaos main job (every scenario, the core's freshly
 * compiled classes ahead of the shaded jar on the class path) and (b) the project's own tests of redlock-core and
 * redlock-examples ({@code mvn verify}). A layer kills a mutant when it fails, and fails again when what failed is
 * run once more (so one flaky failure on a loaded machine does not count as a kill). Prints
 * and writes which mutants each layer killed (chaos suite alone; all tests = either layer).
 *
 * <p>The sources are always restored: after each mutant, on failure, and on Ctrl-C (a shutdown hook); a copy of
 * every file is kept under {@code target/mutation/backup} while it is mutated, and a later run restores from there
 * first if a run was killed hard. A mutant whose original snippet is no longer in the code is reported "does not
 * apply" (re-anchor it), one that does not compile "does not compile".
 *
 * <p>Layer (c), {@code --layers sim} (not in the default), runs the deterministic simulator: {@code --sim-seeds N}
 * seeds (default 2000) until the first violation.
 *
 * <p>Run from the repository root: {@code java mutation/SemanticMutants.java [--only M01,M05] [--layers chaos,tests,sim]
 * [--no-baseline] [--no-build] [--scenarios "1 8 12"] [--check]}; {@code --check} only reports which mutants still apply. Needs a JDK 17+ and Maven on the PATH; about 3 to 5 minutes
 * per mutant on 2 cores.
 */
public final class SemanticMutants {

    record Edit(Path file, String original, String replacement) {}

    record Mutant(String id, String category, String name, String description, List<Edit> edits) {}

    /** What one layer did to one mutant. */
    record LayerResult(String verdict, String detail, long seconds) {
        static final LayerResult NOT_RUN = new LayerResult("-", "", 0);

        boolean killed() {
            return verdict.equals("KILLED");
        }
    }

    record Row(Mutant m, String status, LayerResult chaos, LayerResult tests, LayerResult sim) {}

    private static final Path BACKUP = Path.of("target", "mutation", "backup");
    private static final Map<Path, byte[]> ORIGINALS = new LinkedHashMap<>();
    private static volatile Process child;

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = parseArgs(args);
        Path root = Path.of("").toAbsolutePath();
        if (!Files.exists(root.resolve("redlock-core/pom.xml"))) {
            System.err.println("run from the repository root (redlock-core/pom.xml not found in " + root + ")");
            System.exit(2);
        }
        Path out = root.resolve("target/mutation");
        Files.createDirectories(out);
        restoreLeftovers(root);
        Runtime.getRuntime().addShutdownHook(new Thread(SemanticMutants::onShutdown, "restore-sources"));

        List<Mutant> all = parse(root, root.resolve(opts.getOrDefault("file", "mutation/semantic-mutants.txt")));
        Set<String> only = opts.containsKey("only") ? new LinkedHashSet<>(List.of(opts.get("only").split(","))) : Set.of();
        List<Mutant> mutants = all.stream().filter(m -> only.isEmpty() || only.contains(m.id())).toList();
        Set<String> layers = new LinkedHashSet<>(List.of(opts.getOrDefault("layers", "chaos,tests").split(",")));
        String scenarios = opts.getOrDefault("scenarios", "");
        if (opts.containsKey("check")) {   // only tell which mutants still apply to the current code
            int bad = 0;
            for (Mutant m : mutants) {
                String why = applies(m);
                if (why != null) bad++;
                System.out.println(m.id() + " " + m.category() + " " + m.name() + ": " + (why == null ? "applies" : "DOES NOT APPLY: " + why));
            }
            System.exit(bad == 0 ? 0 : 1);
        }
        Instant t0 = Instant.now();
        System.out.println("[mutation] " + mutants.size() + " semantic mutants, layers " + layers + ", output " + out);

        if (!opts.containsKey("no-build")) {
            System.out.println("[mutation] building the unmutated project (mvn install -DskipTests)");
            if (run(root, out.resolve("build.log"), Duration.ofMinutes(20), "mvn", "-B", "-q", "install", "-DskipTests") != 0) {
                System.err.println("[mutation] the unmutated build failed; see " + out.resolve("build.log"));
                System.exit(1);
            }
        }
        if (!opts.containsKey("no-baseline")) {
            System.out.println("[mutation] baseline: the unmutated code must pass every layer");
            compileCore(root, out.resolve("baseline-compile.log"));
            LayerResult c = layers.contains("chaos") ? chaos(root, out.resolve("baseline"), scenarios) : LayerResult.NOT_RUN;
            LayerResult t = layers.contains("tests") ? tests(root, out.resolve("baseline")) : LayerResult.NOT_RUN;
            LayerResult sim = layers.contains("sim") ? Simulation.layer(root, out.resolve("baseline"), opts.getOrDefault("sim-seeds", "2000")) : LayerResult.NOT_RUN;
            System.out.printf(Locale.ROOT, "[mutation] baseline: chaos %s %s, tests %s %s, simulator %s %s%n", c.verdict(), c.detail(),
                    t.verdict(), t.detail(), sim.verdict(), sim.detail());
            if (c.killed() || t.killed() || sim.killed()) {
                System.out.println("[mutation] WARNING: the unmutated code fails a layer; a 'KILLED' below may be that "
                        + "failure, not the mutant (re-run the mutant with --only)");
            }
        }

        List<Row> rows = new ArrayList<>();
        for (Mutant m : mutants) {
            String why = applies(m);
            if (why != null) {
                System.out.println("[mutation] " + m.id() + " DOES NOT APPLY: " + why);
                rows.add(new Row(m, "does not apply: " + why, LayerResult.NOT_RUN, LayerResult.NOT_RUN, LayerResult.NOT_RUN));
                continue;
            }
            Path dir = out.resolve(m.id());
            Files.createDirectories(dir);
            System.out.println("[mutation] " + m.id() + " " + m.category() + " " + m.name() + ": " + m.description());
            try {
                apply(m);
                if (!compileCore(root, dir.resolve("compile.log"))) {
                    System.out.println("[mutation] " + m.id() + " does not compile; see " + dir.resolve("compile.log"));
                    rows.add(new Row(m, "does not compile", LayerResult.NOT_RUN, LayerResult.NOT_RUN, LayerResult.NOT_RUN));
                    continue;
                }
                LayerResult c = layers.contains("chaos") ? chaos(root, dir, scenarios) : LayerResult.NOT_RUN;
                if (c != LayerResult.NOT_RUN) {
                    System.out.printf(Locale.ROOT, "[mutation] %s chaos: %s %s (%ds)%n", m.id(), c.verdict(), c.detail(), c.seconds());
                }
                LayerResult t = layers.contains("tests") ? tests(root, dir) : LayerResult.NOT_RUN;
                if (t != LayerResult.NOT_RUN) {
                    System.out.printf(Locale.ROOT, "[mutation] %s tests: %s %s (%ds)%n", m.id(), t.verdict(), t.detail(), t.seconds());
                }
                LayerResult sim = layers.contains("sim") ? Simulation.layer(root, dir, opts.getOrDefault("sim-seeds", "2000")) : LayerResult.NOT_RUN;
                if (sim != LayerResult.NOT_RUN) {
                    System.out.printf(Locale.ROOT, "[mutation] %s simulator: %s %s (%ds)%n", m.id(), sim.verdict(), sim.detail(), sim.seconds());
                }
                rows.add(new Row(m, "applied", c, t, sim));
            } finally {
                restore();
            }
        }
        compileCore(root, out.resolve("restore-compile.log"));   // leave target/classes unmutated
        String report = report(rows, Duration.between(t0, Instant.now()));
        System.out.println();
        System.out.print(report);
        Files.writeString(out.resolve("semantic-mutants.md"), report);
        System.out.println("[mutation] written " + out.resolve("semantic-mutants.md"));
    }

    // ---- the definitions ----

    static List<Mutant> parse(Path root, Path file) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        List<Mutant> out = new ArrayList<>();
        String id = null, category = null, name = null, description = "";
        Path target = null;
        List<Edit> edits = new ArrayList<>();
        StringBuilder original = null, replacement = null;
        StringBuilder current = null;
        for (String line : lines) {
            boolean header = line.startsWith("=== ");
            boolean fileLine = line.startsWith("file:") && (current == null || current == replacement);
            if (current != null && (header || fileLine || line.equals("--- original"))) {
                if (replacement == null) throw new IllegalArgumentException(file + ": mutant " + id + ": no '+++'");
                edits.add(new Edit(target, strip(original), strip(replacement)));
                current = original = replacement = null;
            }
            if (header) {
                if (id != null) out.add(new Mutant(id, category, name, description, List.copyOf(edits)));
                String[] p = line.substring(4).trim().split("\\s+", 3);
                if (p.length < 3 || !(p[1].equals("safety") || p[1].equals("liveness"))) {
                    throw new IllegalArgumentException(file + ": bad header '" + line + "' (=== <id> <safety|liveness> <name>)");
                }
                id = p[0];
                category = p[1];
                name = p[2];
                description = "";
                target = null;
                edits = new ArrayList<>();
            } else if (fileLine) {
                target = root.resolve(line.substring("file:".length()).trim());
            } else if (line.equals("--- original")) {
                if (id == null || target == null) throw new IllegalArgumentException(file + ": '--- original' without a mutant header and a 'file:' line");
                original = new StringBuilder();
                current = original;
            } else if (line.equals("+++ replacement")) {
                if (original == null) throw new IllegalArgumentException(file + ": mutant " + id + ": '+++' before '---'");
                replacement = new StringBuilder();
                current = replacement;
            } else if (current != null) {
                current.append(line).append('\n');
            } else if (line.startsWith("description:")) {
                description = line.substring("description:".length()).trim();
            }
            // anything else outside a snippet: comments and blank lines
        }
        if (current != null) edits.add(new Edit(target, strip(original), strip(replacement)));
        if (id != null) out.add(new Mutant(id, category, name, description, List.copyOf(edits)));
        Set<String> ids = new LinkedHashSet<>();
        for (Mutant m : out) {
            if (!ids.add(m.id())) throw new IllegalArgumentException(file + ": duplicate id " + m.id());
            if (m.edits().isEmpty()) throw new IllegalArgumentException(file + ": mutant " + m.id() + " has no edit");
            for (Edit e : m.edits()) {
                if (e.replacement() == null) throw new IllegalArgumentException(file + ": mutant " + m.id() + ": no '+++'");
                if (e.original().isBlank()) throw new IllegalArgumentException(file + ": mutant " + m.id() + ": empty original");
            }
        }
        return out;
    }

    /** Drops the block's trailing blank lines (separators between mutants); the snippet keeps its final newline. */
    private static String strip(StringBuilder sb) {
        if (sb == null) return null;
        String s = sb.toString();
        while (s.endsWith("\n\n")) s = s.substring(0, s.length() - 1);
        return s.equals("\n") ? "" : s;
    }

    /** Null when every edit's original occurs exactly once in its file (after the earlier edits), else why not. */
    static String applies(Mutant m) throws IOException {
        Map<Path, String> text = new LinkedHashMap<>();
        for (Edit e : m.edits()) {
            if (!Files.exists(e.file())) return e.file() + " does not exist";
            String t = text.computeIfAbsent(e.file(), SemanticMutants::read);
            int n = count(t, e.original());
            if (n == 0) return "snippet not found in " + Path.of("").toAbsolutePath().relativize(e.file()) + ": "
                    + e.original().strip().lines().findFirst().orElse("");
            if (n > 1) return "snippet found " + n + " times in " + e.file().getFileName() + " (make it unique)";
            text.put(e.file(), t.replace(e.original(), e.replacement()));
        }
        return null;
    }

    private static int count(String text, String part) {
        int n = 0;
        for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + 1)) n++;
        return n;
    }

    // ---- applying and restoring ----

    static synchronized void apply(Mutant m) throws IOException {
        Files.createDirectories(BACKUP);
        for (Edit e : m.edits()) {
            if (!ORIGINALS.containsKey(e.file())) {
                byte[] b = Files.readAllBytes(e.file());
                Files.write(BACKUP.resolve(backupName(e.file())), b);
                Files.writeString(BACKUP.resolve(backupName(e.file()) + ".path"), e.file().toString());
                ORIGINALS.put(e.file(), b);
            }
            String t = Files.readString(e.file());
            Files.writeString(e.file(), t.replace(e.original(), e.replacement()));
        }
    }

    static synchronized void restore() {
        for (Map.Entry<Path, byte[]> en : ORIGINALS.entrySet()) {
            try {
                Files.write(en.getKey(), en.getValue());
                Files.deleteIfExists(BACKUP.resolve(backupName(en.getKey())));
                Files.deleteIfExists(BACKUP.resolve(backupName(en.getKey()) + ".path"));
            } catch (IOException e) {
                System.err.println("[mutation] COULD NOT RESTORE " + en.getKey() + ": " + e + " (copy in " + BACKUP + ")");
            }
        }
        ORIGINALS.clear();
    }

    private static String backupName(Path file) {
        return file.toString().replaceAll("[^A-Za-z0-9._-]", "_");
    }

    /** A run killed hard (kill -9) left its backups: put them back before anything else. */
    private static void restoreLeftovers(Path root) throws IOException {
        Path dir = root.resolve(BACKUP);
        if (!Files.isDirectory(dir)) return;
        try (var files = Files.list(dir)) {
            for (Path p : files.filter(f -> f.toString().endsWith(".path")).toList()) {
                Path target = Path.of(Files.readString(p).trim());
                Path copy = Path.of(p.toString().substring(0, p.toString().length() - ".path".length()));
                Files.copy(copy, target, StandardCopyOption.REPLACE_EXISTING);
                Files.delete(copy);
                Files.delete(p);
                System.out.println("[mutation] restored " + target + " left mutated by an interrupted run");
            }
        }
    }

    private static void onShutdown() {
        Process p = child;
        if (p != null && p.isAlive()) stop(p);
        if (!ORIGINALS.isEmpty()) {
            System.err.println("[mutation] interrupted: restoring the sources");
            restore();
        }
    }

    // ---- the layers ----

    private static boolean compileCore(Path root, Path log) throws Exception {
        return run(root, log, Duration.ofMinutes(10), "mvn", "-B", "-q", "-o", "compile", "-pl", "redlock-core") == 0;
    }

    private static final Pattern SCENARIO_FAIL = Pattern.compile("\\[chaos\\] scenario (\\S+)\\s+FAIL\\b.*?failures=\\[(.*)\\]");

    /**
     * (a) The chaos main job on the mutated core's classes (ahead of the shaded jar). A failure is confirmed by running
     * the failed scenarios once more: only scenarios that fail both times kill the mutant (a loaded machine can make a
     * timing-sensitive scenario fail once; a mutant makes it fail again).
     */
    static LayerResult chaos(Path root, Path dir, String scenarios) throws Exception {
        long t = System.nanoTime();
        Map<String, String> first = chaosRun(root, dir, "chaos", scenarios.isBlank() ? List.of() : List.of(scenarios.trim().split("\\s+")));
        Map<String, String> failed = first;
        if (!first.isEmpty() && !first.containsKey("*")) {
            Map<String, String> again = chaosRun(root, dir, "chaos-confirm", List.copyOf(first.keySet()));
            failed = new LinkedHashMap<>();
            for (Map.Entry<String, String> e : again.entrySet()) if (first.containsKey(e.getKey())) failed.put(e.getKey(), e.getValue());
            if (again.containsKey("*")) failed = again;
        }
        long s = (System.nanoTime() - t) / 1_000_000_000L;
        if (failed.isEmpty()) {
            return new LayerResult("survived", first.isEmpty() ? "" : "failed once, passed on re-run: " + String.join(",", first.keySet()), s);
        }
        List<String> parts = new ArrayList<>();
        failed.forEach((id, why) -> parts.add(id.equals("*") ? why : id + ": " + shorten(why, 90)));
        return new LayerResult("KILLED", String.join("; ", parts), s);
    }

    /** One run of the chaos CLI: scenario id to its failure reasons; "*" when the run failed as a whole. */
    private static Map<String, String> chaosRun(Path root, Path dir, String name, List<String> scenarios) throws Exception {
        Path log = dir.resolve(name + ".log");
        List<String> cmd = new ArrayList<>(List.of(javaBin(), "-cp",
                "redlock-core/target/classes" + File.pathSeparator + "redlock-chaos-cli/target/redlock-chaos.jar",
                "dev.redlock.chaos.cli.ChaosCli", "run", "--report", dir.resolve(name + "-report").toString()));
        cmd.addAll(scenarios);
        int code = run(root, log, Duration.ofMinutes(15), cmd.toArray(String[]::new));
        Map<String, String> failed = new LinkedHashMap<>();
        if (code == 0) return failed;
        Matcher mt = SCENARIO_FAIL.matcher(Files.readString(log));
        while (mt.find()) failed.put(mt.group(1), mt.group(2));
        if (code == TIMED_OUT) failed.put("*", "timed out");
        else if (failed.isEmpty()) failed.put("*", "exit " + code);
        return failed;
    }

    private static final Pattern TEST_FAIL = Pattern.compile("(?m)^\\[ERROR\\] (?:Tests run:.*?<<< (?:FAILURE|ERROR)! -- in (\\S+)"
            + "|\\s+(\\w+(?:IT|Test)\\.\\w+))");

    /**
     * (b) The project's tests: redlock-core and redlock-examples, {@code mvn verify}. A failure is confirmed by running
     * the failed test classes once more; only classes that fail both times kill the mutant.
     */
    static LayerResult tests(Path root, Path dir) throws Exception {
        long t = System.nanoTime();
        Set<String> first = testRun(root, dir.resolve("tests.log"), List.of());
        Set<String> failed = first;
        if (!first.isEmpty() && !first.contains("*")) {
            Set<String> again = testRun(root, dir.resolve("tests-confirm.log"), List.copyOf(first));
            failed = new LinkedHashSet<>(again);
            failed.retainAll(first);
            if (again.contains("*")) failed = again;
        }
        long s = (System.nanoTime() - t) / 1_000_000_000L;
        if (failed.isEmpty()) {
            return new LayerResult("survived", first.isEmpty() ? "" : "failed once, passed on re-run: " + String.join(",", first), s);
        }
        List<String> names = new ArrayList<>(failed);
        String shown = String.join(",", names.subList(0, Math.min(4, names.size())))
                + (names.size() > 4 ? " +" + (names.size() - 4) + " more" : "");
        return new LayerResult("KILLED", shown, s);
    }

    /** One test run: the failed test classes (simple names); "*" alone when the run failed otherwise. */
    private static Set<String> testRun(Path root, Path log, List<String> only) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("mvn", "-B", "-o", "verify", "-pl", "redlock-core,redlock-examples"));
        if (!only.isEmpty()) {
            // -Dtest runs the named classes in surefire, *IT included; failsafe's whole IT run is not needed again
            cmd.add("-Dtest=" + String.join(",", only));
            cmd.add("-Dsurefire.failIfNoSpecifiedTests=false");
            cmd.add("-DskipITs");
        }
        int code = run(root, log, Duration.ofMinutes(20), cmd.toArray(String[]::new));
        Set<String> failed = new LinkedHashSet<>();
        if (code == 0) return failed;
        Matcher mt = TEST_FAIL.matcher(Files.readString(log));
        while (mt.find()) failed.add(mt.group(1) != null ? mt.group(1).replaceAll(".*\\.", "") : mt.group(2).replaceAll("\\..*", ""));
        if (code == TIMED_OUT) return Set.of("*");
        if (failed.isEmpty()) failed.add("*");
        return failed;
    }

    /**
     * (c) The deterministic simulator ({@code simulate} of the chaos CLI, the mutated core's classes ahead of the
     * shaded jar) over seeds 1.. until the first violation; the failing seed is replayed alone to confirm (a seed is
     * deterministic, so a replay that passes means the run itself was broken, not the mutant caught).
     */
    static final class Simulation {
        private static final Pattern FIRST = Pattern.compile("first violation after (\\d+) seeds, ([0-9.]+) s: seed (\\d+)");
        private static final Pattern VIOLATION = Pattern.compile("VIOLATION seed \\d+: [0-9.]+ms (\\w+)");

        static LayerResult layer(Path root, Path dir, String seeds) throws Exception {
            long t = System.nanoTime();
            int code = run(root, dir.resolve("sim.log"), Duration.ofMinutes(20), simulate(dir, "--seeds", seeds, "--seed", "1",
                    "--threads", "2", "--stop-at-first"));
            String log = Files.readString(dir.resolve("sim.log"));
            long s = (System.nanoTime() - t) / 1_000_000_000L;
            Matcher first = FIRST.matcher(log);
            if (code == 0) return new LayerResult("survived", seeds + " seeds", s);
            if (!first.find()) return new LayerResult("KILLED", code == TIMED_OUT ? "timed out" : "exit " + code, s);
            String seed = first.group(3);
            Matcher kind = VIOLATION.matcher(log);
            String what = kind.find() ? kind.group(1) : "?";
            int replay = run(root, dir.resolve("sim-replay.log"), Duration.ofMinutes(5), simulate(dir, "--seed", seed));
            if (replay != 1) return new LayerResult("survived", "seed " + seed + " did not fail again on replay", s);
            return new LayerResult("KILLED", what + ", seed " + seed + " after " + first.group(1) + " seeds, "
                    + first.group(2) + " s", s);
        }

        private static String[] simulate(Path dir, String... args) {
            List<String> cmd = new ArrayList<>(List.of(javaBin(), "-cp",
                    "redlock-core/target/classes" + File.pathSeparator + "redlock-chaos-cli/target/redlock-chaos.jar",
                    "dev.redlock.chaos.cli.ChaosCli", "simulate", "--trace-dir", dir.resolve("sim-traces").toString()));
            cmd.addAll(List.of(args));
            return cmd.toArray(String[]::new);
        }
    }

    private static String shorten(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max - 1) + "…";
    }

    private static final int TIMED_OUT = -999;

    private static int run(Path root, Path log, Duration timeout, String... cmd) throws Exception {
        Files.createDirectories(log.getParent());
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(root.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile());
        Process p = pb.start();
        child = p;
        try {
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                stop(p);
                return TIMED_OUT;
            }
            return p.exitValue();
        } finally {
            child = null;
        }
    }

    /** Stops a child we started and its descendants: SIGTERM first (their own clean-up runs), then SIGKILL. */
    private static void stop(Process p) {
        List<ProcessHandle> tree = new ArrayList<>(p.descendants().toList());
        tree.add(p.toHandle());
        tree.forEach(ProcessHandle::destroy);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        for (ProcessHandle h : tree) {
            while (h.isAlive() && System.nanoTime() < deadline) sleep(100);
            if (h.isAlive()) h.destroyForcibly();
        }
    }

    private static String javaBin() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    // ---- the report ----

    static String report(List<Row> rows, Duration wall) {
        StringBuilder sb = new StringBuilder();
        sb.append("| id | category | mutant | chaos suite alone | project tests | simulator | verdict |\n");
        sb.append("|---|---|---|---|---|---|---|\n");
        int[] applied = new int[2], byChaos = new int[2], byAll = new int[2], bySim = new int[2];   // [safety, liveness]
        for (Row r : rows) {
            int k = r.m().category().equals("safety") ? 0 : 1;
            String verdict;
            if (!r.status().equals("applied")) {
                verdict = r.status();
            } else {
                applied[k]++;
                if (r.chaos().killed()) byChaos[k]++;
                if (r.sim().killed()) bySim[k]++;
                boolean all = r.chaos().killed() || r.tests().killed() || r.sim().killed();
                if (all) byAll[k]++;
                verdict = all ? "killed" : "SURVIVED";
            }
            sb.append("| ").append(r.m().id()).append(" | ").append(r.m().category()).append(" | ")
              .append(r.m().name()).append(": ").append(r.m().description()).append(" | ")
              .append(cell(r.chaos())).append(" | ").append(cell(r.tests())).append(" | ").append(cell(r.sim()))
              .append(" | ").append(verdict).append(" |\n");
        }
        sb.append('\n');
        sb.append(String.format(Locale.ROOT, "chaos suite alone: %d/%d killed (safety %d/%d, liveness %d/%d)%n",
                byChaos[0] + byChaos[1], applied[0] + applied[1], byChaos[0], applied[0], byChaos[1], applied[1]));
        sb.append(String.format(Locale.ROOT, "simulator alone: %d/%d killed (safety %d/%d, liveness %d/%d)%n",
                bySim[0] + bySim[1], applied[0] + applied[1], bySim[0], applied[0], bySim[1], applied[1]));
        sb.append(String.format(Locale.ROOT, "all layers: %d/%d killed (safety %d/%d, liveness %d/%d)%n",
                byAll[0] + byAll[1], applied[0] + applied[1], byAll[0], applied[0], byAll[1], applied[1]));
        sb.append("wall time: ").append(wall.toMinutes()).append(" min ").append(wall.toSecondsPart()).append(" s\n");
        return sb.toString();
    }

    private static String cell(LayerResult r) {
        if (r == LayerResult.NOT_RUN) return "-";
        return (r.verdict() + (r.detail().isEmpty() ? "" : " (" + r.detail() + ")")).replace("|", "/");
    }

    // ---- plumbing ----

    private static Map<String, String> parseArgs(String[] args) {
        Map<String, String> o = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--only", "--layers", "--scenarios", "--file", "--sim-seeds" -> {
                    if (i + 1 >= args.length) usage("missing value after " + a);
                    o.put(a.substring(2), args[++i]);
                }
                case "--no-baseline", "--no-build", "--check" -> o.put(a.substring(2), "true");
                case "-h", "--help" -> usage(null);
                default -> usage("unknown argument " + a);
            }
        }
        for (String l : o.getOrDefault("layers", "chaos,tests").split(",")) {
            if (!l.equals("chaos") && !l.equals("tests") && !l.equals("sim")) usage("--layers takes chaos, tests and/or sim, got " + l);
        }
        return o;
    }

    private static void usage(String error) {
        if (error != null) System.err.println(error);
        System.err.println("usage: java mutation/SemanticMutants.java [--only M01,M02] [--layers chaos,tests,sim] [--sim-seeds 2000] "
                + "[--scenarios \"1 8 12\"] [--no-baseline] [--no-build] [--check] [--file mutation/semantic-mutants.txt]");
        System.exit(error == null ? 0 : 2);
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
