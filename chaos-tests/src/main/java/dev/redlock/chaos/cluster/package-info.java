/**
 * The system under test: N independent redis-server processes ({@link dev.redlock.testkit.RedisProcess},
 * managed by pid, persistence off or AOF {@code appendfsync always}), each reachable by clients only through its own
 * Toxiproxy proxy ({@link dev.redlock.chaos.cluster.ChaosCluster}), and the provider chain that finds or starts the
 * Toxiproxy server ({@link dev.redlock.chaos.cluster.Toxiproxy}: TOXIPROXY_URL, a PATH binary, Testcontainers, the
 * in-JVM server). Everything started here is stopped by pid in {@code close()}, also after failures.
 */
package dev.redlock.chaos.cluster;
