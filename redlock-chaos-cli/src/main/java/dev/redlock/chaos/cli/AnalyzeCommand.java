package dev.redlock.chaos.cli;

import dev.redlock.chaos.report.RunDirectory;
import dev.redlock.chaos.report.TextReport;
import dev.redlock.chaos.scenario.ScenarioResult;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code analyze DIR}: re-runs every checker on the histories a {@code run} stored in DIR, prints what each scenario
 * showed then and shows now, and rewrites DIR's {@code results.txt} and {@code report.html} from the re-check.
 * Exit codes as {@code run}'s: 0 every scenario that ran holds its claim, 1 one does not, 2 DIR holds no stored run.
 */
@Command(name = "analyze", mixinStandardHelpOptions = true,
        description = "Re-check a stored run: every checker again on its histories; rewrites its report.")
final class AnalyzeCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "DIR", description = "A report directory written by run (it holds run.json).")
    Path dir;

    @Override
    public Integer call() throws Exception {
        List<RunDirectory.Stored> stored;
        try {
            stored = RunDirectory.read(dir);
        } catch (IllegalArgumentException e) {
            System.err.println("analyze: " + e.getMessage());
            return 2;
        }
        List<ScenarioResult> now = stored.stream().map(RunDirectory.Stored::now).toList();
        long changed = 0;
        for (RunDirectory.Stored s : stored) {
            ScenarioResult r = s.now();
            boolean differs = s.changed();
            if (differs) changed++;
            System.out.println("[analyze] scenario " + r.id() + ": " + s.statusThen() + " observed " + s.observedThen()
                    + (differs ? " -> now " + r.status() + " observed " + r.observed() + " (CHANGED: " + r.verdict()
                    + ")" : " (same verdicts)"));
        }
        String footer = RunDirectory.footer(dir);
        System.out.println();
        System.out.print(TextReport.table(now) + footer);
        Path html = RunDirectory.writeReport(dir, now, footer);
        System.out.println("re-checked " + stored.size() + " scenario(s), " + changed + " with another verdict than the "
                + "run's; HTML report rewritten: " + html.toAbsolutePath());
        return now.stream().anyMatch(r -> !r.isSkipped() && !r.passed()) ? 1 : 0;
    }
}
