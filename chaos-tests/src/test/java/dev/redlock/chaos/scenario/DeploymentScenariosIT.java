package dev.redlock.chaos.scenario;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The deployment scenarios ({@link DeploymentScripts}), one test each: every claim must hold on real redis-server
 * processes behind Toxiproxy. d1b and d4a are the twins that show the violation without the guard (identity
 * check, preflight) that d1a and d4b rely on.
 */
@Tag("chaos")
class DeploymentScenariosIT {
    @Test
    void rdbRestartIsSafeWithTheIdentityCheck() {
        ScenarioAssert.runAndAssert("d1a");
    }

    @Test
    void rdbRestartWithoutTheIdentityCheckGivesTwoHolders() {
        ScenarioAssert.runAndAssert("d1b");
    }

    @Test
    void aofEverysecRestartIsSafe() {
        ScenarioAssert.runAndAssert("d2");
    }

    @Test
    void failoverToALaggingReplicaIsSafe() {
        ScenarioAssert.runAndAssert("d3");
    }

    @Test
    void evictionWithPreflightOffGivesTwoHolders() {
        ScenarioAssert.runAndAssert("d4a");
    }

    @Test
    void evictionWithPreflightStrictIsRefusedAtStart() {
        ScenarioAssert.runAndAssert("d4b");
    }

    @Test
    void aNodeRestartedWithItsClockBehindIsSafe() {
        ScenarioAssert.runAndAssert("d5");
    }

    @Test
    void clientsWithDifferentQuarantinesAreSafe() {
        ScenarioAssert.runAndAssert("d6");
    }

    @Test
    void aNodeThatLostItsFenceEntryOrItsMemoryStillIssuesHigherTokens() {
        ScenarioAssert.runAndAssert("d7");
    }
}
