package dev.redlock.chaos.scenario;

/** The body of a scenario: injects its faults through {@link ScenarioContext#nemesis()} and drives the clients. */
@FunctionalInterface
public interface ScenarioScript {
    void run(ScenarioContext ctx) throws Exception;
}
