/**
 * The scenarios of the chaos suite (docs/chaos.md) as code ({@link dev.redlock.chaos.scenario.Scenarios}), the runner
 * ({@link dev.redlock.chaos.scenario.ScenarioRunner#run}) and its result
 * ({@link dev.redlock.chaos.scenario.ScenarioResult}): what the CLI and the HTML report are built on.
 */
package dev.redlock.chaos.scenario;
