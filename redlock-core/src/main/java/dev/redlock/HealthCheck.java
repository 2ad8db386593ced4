package dev.redlock;

import dev.redlock.internal.Durations;
import dev.redlock.internal.Failures;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@link Redlock#checkHealth}: reads every node's facts in parallel, as the preflight checks do ({@code INFO},
 * {@code TIME}, {@code CONFIG GET} where {@code INFO} does not say), applies {@link PreflightRules}, and reports.
 * Read-only: it changes neither the nodes nor what the {@link PreflightGate} decided.
 */
final class HealthCheck {
    private HealthCheck() {}

    static RedlockHealth run(RedlockContext ctx, Duration timeout) {
        RedlockConfig cfg = ctx.config();
        int n = ctx.nodes().size();
        long start = ctx.ticker().nanoTime();
        long[] answeredAt = new long[n];
        List<CompletableFuture<NodeFacts>> all = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int node = i;
            CompletableFuture<NodeFacts> f;
            try {
                f = PreflightCheck.facts(ctx.node(i), ctx.nodeAddress(i), ctx::wallMicros);
            } catch (RuntimeException e) {
                f = CompletableFuture.failedFuture(e);
            }
            all.add(f.whenComplete((x, e) -> answeredAt[node] = ctx.ticker().nanoTime()));
        }
        try {
            CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            // per node below
        }
        long tolerance = PreflightRules.clockToleranceUs(cfg);
        List<NodeFacts> answered = new ArrayList<>();
        Map<String, List<PreflightFinding>> findings = new HashMap<>();
        for (CompletableFuture<NodeFacts> f : all) {
            if (!f.isDone() || f.isCompletedExceptionally()) continue;
            NodeFacts facts = f.join();
            answered.add(facts);
            findings.computeIfAbsent(facts.node(), k -> new ArrayList<>()).addAll(PreflightRules.check(facts, tolerance));
        }
        for (PreflightFinding f : PreflightRules.compareClocks(answered, tolerance)) {
            findings.computeIfAbsent(f.node(), k -> new ArrayList<>()).add(f);
        }
        List<RedlockHealth.Node> nodes = new ArrayList<>(n);
        int up = 0;
        for (int i = 0; i < n; i++) {
            CompletableFuture<NodeFacts> f = all.get(i);
            String address = ctx.nodeAddress(i);
            if (!f.isDone()) {
                nodes.add(new RedlockHealth.Node(address, RedlockHealth.Status.DOWN, timeout, List.of(),
                        "no answer within " + Durations.human(timeout)));
                continue;
            }
            Duration elapsed = Duration.ofNanos(Math.max(0, answeredAt[i] - start));
            if (f.isCompletedExceptionally()) {
                String error;
                try {
                    f.join();
                    error = "failed";
                } catch (RuntimeException e) {
                    error = Failures.describe(e);
                }
                nodes.add(new RedlockHealth.Node(address, RedlockHealth.Status.DOWN, elapsed, List.of(), error));
                continue;
            }
            List<PreflightFinding> mine = findings.getOrDefault(address, List.of());
            boolean refused = cfg.preflight() == Preflight.STRICT && mine.stream().anyMatch(PreflightFinding::refuse);
            if (!refused) up++;
            nodes.add(new RedlockHealth.Node(address, refused ? RedlockHealth.Status.REFUSED : RedlockHealth.Status.UP,
                    elapsed, mine.stream().map(PreflightFinding::message).toList(), ""));
        }
        return new RedlockHealth(up >= cfg.quorum(), cfg.quorum(), cfg.preflight(), nodes);
    }
}
