package dev.redlock.sim.simulator;

import dev.redlock.sim.Persistence;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The shape of one seed's world, drawn from the seed: how many nodes (3 or 5) and clients (2 to 4), the resources,
 * each node's persistence, version and clock, each client's settings (node timeout, retries, TTLs, restart
 * quarantine: clients disagree on it on purpose), and the network's delays. Everything stays inside what the
 * library's configuration tolerates: clock rates within the drift allowance, TTLs within each client's quarantine.
 */
final class Plan {
    /** Node and client clocks start here (2025-06-01T00:00:00Z), in microseconds. */
    static final long EPOCH_US = 1_748_736_000_000_000L;
    static final double DRIFT_FACTOR = 0.01;

    final long seed;
    final int nodes;
    final int quorum;
    final int clients;
    final String[] resources;
    final Persistence[] persistence;
    final String[] versions;
    final long[] nodeClockOffsetUs;
    /** Whether every node is marked fresh before the workload starts (the operator's step at a first deployment). */
    final boolean markedFresh;
    /**
     * How far any clock (a node's, a client's wall clock) may be from true time, in microseconds: half the clock
     * tolerance of the strictest client ({@code (restartQuarantine - 2 margin) / 2}, what preflight enforces), so any
     * two clocks are within the whole of it of each other.
     */
    final long clockBoundUs;
    final long minDelayNs;
    final long maxDelayNs;
    final ClientPlan[] client;

    /** One client's settings. */
    static final class ClientPlan {
        final long nodeTimeoutMs;
        final int retryCount;
        final long retryDelayMs;
        final long retryJitterMs;
        final long minTtlMs;
        final long maxTtlMs;
        long quarantineMs;
        final long maxHoldMs;
        final double tickerRate;
        long wallOffsetUs;
        final long randomSeed;

        ClientPlan(SplittableRandom r) {
            nodeTimeoutMs = new long[] {10, 20, 40}[r.nextInt(3)];
            retryCount = r.nextInt(4);
            retryDelayMs = 10 + r.nextInt(50);
            retryJitterMs = r.nextInt(20);
            minTtlMs = 4 * nodeTimeoutMs + r.nextInt(40);
            maxTtlMs = minTtlMs + r.nextInt(500);
            // clients disagree on the quarantine: every one covers its own TTLs, some by far
            long[] choices = {maxTtlMs, maxTtlMs + 100, 2 * maxTtlMs, 1500};
            quarantineMs = Math.max(maxTtlMs, choices[r.nextInt(choices.length)]);
            maxHoldMs = r.nextInt(8) == 0 ? 3 * maxTtlMs : 0;
            // a client's monotonic clock may run slow by a quarter of the drift allowance (nodes: fast by half)
            tickerRate = 1.0 - r.nextDouble() * DRIFT_FACTOR / 4;
            randomSeed = r.nextLong();
        }

        /** Preflight's clock tolerance for this client: {@code (q - 2 margin) / 2}, margin = min(100 ms, q / 4). */
        long clockToleranceUs() {
            long q = quarantineMs * 1000;
            return (q - 2 * Math.min(100_000, q / 4)) / 2;
        }
    }

    Plan(long seed) {
        this.seed = seed;
        SplittableRandom r = new SplittableRandom(seed ^ 0x5DEECE66DL);
        nodes = r.nextInt(5) < 3 ? 3 : 5;
        quorum = nodes / 2 + 1;
        clients = 2 + r.nextInt(3);
        resources = r.nextInt(3) == 0 ? new String[] {"r0", "r1"} : new String[] {"r0"};
        persistence = new Persistence[nodes];
        versions = new String[nodes];
        nodeClockOffsetUs = new long[nodes];
        Persistence[] kinds = {Persistence.NONE, Persistence.RDB, Persistence.AOF_EVERYSEC, Persistence.AOF_ALWAYS};
        String[] vs = {"7.0.15", "6.2.11", "valkey 8.0.1"};
        for (int i = 0; i < nodes; i++) {
            persistence[i] = kinds[r.nextInt(kinds.length)];
            versions[i] = vs[r.nextInt(vs.length)];
        }
        // two worlds in five start with every node marked fresh (Redlock.markNodesFresh at deployment): no quarantine
        // at first contact and fences without a clock floor, so a lost fence entry reads the high-water mark
        markedFresh = r.nextInt(5) < 2;
        minDelayNs = 20_000 + r.nextInt(100_000);
        maxDelayNs = minDelayNs + r.nextInt(2_000_000);
        client = new ClientPlan[clients];
        long tolerance = Long.MAX_VALUE;
        for (int i = 0; i < clients; i++) {
            client[i] = new ClientPlan(r);
            tolerance = Math.min(tolerance, client[i].clockToleranceUs());
        }
        clockBoundUs = tolerance / 2;
        for (int i = 0; i < nodes; i++) nodeClockOffsetUs[i] = r.nextLong(-clockBoundUs / 2, clockBoundUs / 2 + 1);
        for (ClientPlan c : client) c.wallOffsetUs = r.nextLong(-clockBoundUs / 2, clockBoundUs / 2 + 1);
    }

    /** Every client's restart quarantine set to zero (the amnesia guard off); the clock bounds stay as drawn. */
    void withoutQuarantine() {
        for (ClientPlan c : client) c.quarantineMs = 0;
    }

    /** The longest node timeout of any client. */
    long maxNodeTimeoutMs() {
        long m = 0;
        for (ClientPlan c : client) m = Math.max(m, c.nodeTimeoutMs);
        return m;
    }

    /** The longest TTL and the strictest quarantine of any client. */
    long maxTtlMs() {
        long m = 0;
        for (ClientPlan c : client) m = Math.max(m, c.maxTtlMs);
        return m;
    }

    long maxQuarantineMs() {
        long m = 0;
        for (ClientPlan c : client) m = Math.max(m, c.quarantineMs);
        return m;
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder().append(nodes).append(" nodes (quorum ").append(quorum).append("), ")
                .append(clients).append(" clients, resources ").append(String.join(",", resources)).append(", nodes");
        for (int i = 0; i < nodes; i++) {
            b.append(i == 0 ? (markedFresh ? " marked fresh: " : " ") : "; ").append('n').append(i).append(' ').append(versions[i]).append(' ')
                    .append(persistence[i]).append(String.format(Locale.ROOT, " clock %+dus", nodeClockOffsetUs[i]));
        }
        b.append(", link delay ").append(minDelayNs / 1000)
                .append("..").append(maxDelayNs / 1000).append("us")
                .append(", clocks within ").append(clockBoundUs).append("us of true time");
        for (int i = 0; i < clients; i++) {
            ClientPlan c = client[i];
            b.append(String.format(Locale.ROOT, "; c%d nodeTimeout %dms retries %dx%d±%dms ttl %d..%dms quarantine %dms%s ticker x%.5f wall %+dus",
                    i, c.nodeTimeoutMs, c.retryCount, c.retryDelayMs, c.retryJitterMs, c.minTtlMs, c.maxTtlMs,
                    c.quarantineMs, c.maxHoldMs > 0 ? " maxHold " + c.maxHoldMs + "ms" : "", c.tickerRate, c.wallOffsetUs));
        }
        return b.toString();
    }
}
