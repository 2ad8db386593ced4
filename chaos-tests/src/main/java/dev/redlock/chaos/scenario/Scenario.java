package dev.redlock.chaos.scenario;

import java.util.Objects;

/**
 * One scenario of the chaos suite: what fault, what outcome it claims, with what settings, and the script that injects the
 * fault and drives the clients. Immutable; {@link #withSeed} and {@link #withSettings} return copies. Run it with
 * {@link ScenarioRunner}.
 *
 * @param id       "1".."14", with a letter for variants ("4a")
 * @param name     short title
 * @param fault    what the nemesis does
 * @param expected the claim checked after the run
 * @param settings knobs, including the seed
 * @param script   the body
 * @param needs    what the cluster must offer for the script to run as designed (else the run is SKIPPED)
 */
public record Scenario(String id, String name, String fault, Expectation expected, Settings settings,
                       ScenarioScript script, Needs needs) {

    public Scenario {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(expected, "expected");
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(script, "script");
        Objects.requireNonNull(needs, "needs");
    }

    /** A scenario that needs nothing beyond the main proxies. */
    public Scenario(String id, String name, String fault, Expectation expected, Settings settings,
                    ScenarioScript script) {
        this(id, name, fault, expected, settings, script, Needs.NOTHING);
    }

    public Scenario withSeed(long seed) {
        return new Scenario(id, name, fault, expected, settings.toBuilder().seed(seed).build(), script, needs);
    }

    public Scenario withSettings(Settings s) {
        return new Scenario(id, name, fault, expected, s, script, needs);
    }

    @Override
    public String toString() {
        return "scenario " + id + " (" + name + ", expected " + expected + ")";
    }
}
