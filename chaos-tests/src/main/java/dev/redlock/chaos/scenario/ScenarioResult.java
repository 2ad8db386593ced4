package dev.redlock.chaos.scenario;

import dev.redlock.chaos.checker.Result;
import dev.redlock.chaos.history.FaultWindow;
import dev.redlock.chaos.history.History;
import java.util.List;
import java.util.Locale;

/**
 * Everything one scenario run produced: the claim, what was observed, whether the claim held (and if not, why), the
 * counts, the checker verdicts, the full history with its fault windows, and how the run was made (Toxiproxy
 * provider, clock mode, seed) so it can be reported and replayed ({@code -Dchaos.seed=<seed>}).
 *
 * @param id             scenario id
 * @param name           scenario title
 * @param fault          what the nemesis did
 * @param expected       the claim
 * @param observed       what the unfenced run showed
 * @param passed         whether the claim and every scenario check held
 * @param failures       why not, one line each (empty when passed)
 * @param counts         the numbers
 * @param checks         scenario-specific checks
 * @param verdict        the checkers' composite result ({@link dev.redlock.chaos.checker.Checker#standard()})
 * @param history        the full history
 * @param faults         the fault windows (also in the history)
 * @param toxiproxyMode  which Toxiproxy provider ran, and why earlier ones were skipped
 * @param clockMode      "faketime (...)", "simulated-ttl (...)" or "none"
 * @param seed           the seed
 * @param settings       the settings used
 * @param durationMs     wall time of the whole run including setup and teardown
 * @param error          a harness failure (the scenario could not run as designed), null when none
 * @param skipped        why the scenario was not run at all (the cluster cannot offer what it {@link Scenario#needs()
 *                       needs}), null when it ran. A skipped result is neither passed nor failed: {@code passed} is
 *                       false, {@code counts}, {@code verdict} and {@code history} are null
 */
public record ScenarioResult(String id, String name, String fault, Expectation expected, Outcome observed,
                             boolean passed, List<String> failures, Counts counts, List<Check> checks, Result verdict,
                             History history, List<FaultWindow> faults, String toxiproxyMode, String clockMode,
                             long seed, Settings settings, long durationMs, String error, String skipped) {

    public ScenarioResult {
        failures = List.copyOf(failures);
        checks = List.copyOf(checks);
        faults = List.copyOf(faults);
    }

    /** A result of a scenario that ran. */
    public ScenarioResult(String id, String name, String fault, Expectation expected, Outcome observed,
                          boolean passed, List<String> failures, Counts counts, List<Check> checks, Result verdict,
                          History history, List<FaultWindow> faults, String toxiproxyMode, String clockMode,
                          long seed, Settings settings, long durationMs, String error) {
        this(id, name, fault, expected, observed, passed, failures, counts, checks, verdict, history, faults,
                toxiproxyMode, clockMode, seed, settings, durationMs, error, null);
    }

    /** The result of a scenario that was not run, and why. */
    public static ScenarioResult skipped(Scenario s, String reason, String toxiproxyMode) {
        return new ScenarioResult(s.id(), s.name(), s.fault(), s.expected(), Outcome.UNKNOWN, false, List.of(), null,
                List.of(), null, null, List.of(), toxiproxyMode, "none", s.settings().seed(), s.settings(), 0, null,
                reason);
    }

    /** Whether the scenario was not run ({@link #skipped()} says why). */
    public boolean isSkipped() {
        return skipped != null;
    }

    /** PASS, FAIL or SKIPPED. */
    public String status() {
        return isSkipped() ? "SKIPPED" : passed ? "PASS" : "FAIL";
    }

    /** One line: id, claim, observation, counts, seed. */
    public String summary() {
        if (isSkipped()) {
            return String.format(Locale.ROOT, "scenario %-3s SKIPPED expected=%-9s reason=%s toxiproxy=%s", id,
                    expected, skipped, toxiproxyMode.split(" ")[0]);
        }
        Counts c = counts;
        return String.format(Locale.ROOT,
                "scenario %-3s %-4s expected=%-9s observed=%-9s ops=%d acquires=%d/%d violations=%d "
                        + "staleAcceptedUnfenced=%d staleRejectedFenced=%d staleAcceptedFenced=%d lostUpdates=%d "
                        + "unheld=%d keyLeaks=%d tokenInversions=%d "
                        + "availability=%.2f longestNoHolder=%.0fms seed=%d toxiproxy=%s clock=%s %dms%s",
                id, passed ? "PASS" : "FAIL", expected, observed, c.operations(), c.acquireOk(), c.acquireAttempts(),
                c.violations(), c.staleAcceptedUnfenced(), c.staleRejectedFenced(), c.staleAcceptedFenced(),
                c.lostUpdates(), c.unheld(), c.keyLeaks(), c.tokenInversions(), c.availability(), c.longestNoHolderMs(), seed, toxiproxyMode.split(" ")[0], clockMode,
                durationMs, passed ? "" : " failures=" + failures);
    }

    /** The summary, the checks, the anomalies and the history: what a failing test prints. */
    public String describe() {
        if (isSkipped()) return summary() + "\n  " + name + ": " + fault + "\n  settings: " + settings + "\n";
        StringBuilder sb = new StringBuilder(summary()).append('\n');
        sb.append("  ").append(name).append(": ").append(fault).append('\n');
        sb.append("  settings: ").append(settings).append('\n');
        sb.append("  toxiproxy: ").append(toxiproxyMode).append('\n');
        sb.append("  verdict: ").append(verdict).append('\n');
        for (Check c : checks) sb.append("  ").append(c).append('\n');
        if (error != null) sb.append("  error: ").append(error).append('\n');
        verdict.parts().forEach(p -> p.anomalies().forEach(a -> sb.append("  anomaly ").append(a).append('\n')));
        sb.append(history.dump());
        return sb.toString();
    }
}
