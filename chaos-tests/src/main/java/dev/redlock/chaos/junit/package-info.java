/**
 * The chaos suite as JUnit 5 tests in a user's own build ({@link dev.redlock.chaos.junit.ChaosSuite}): chosen
 * scenarios, tuned settings, embedded nodes or the user's nodes behind Toxiproxy.
 */
package dev.redlock.chaos.junit;
