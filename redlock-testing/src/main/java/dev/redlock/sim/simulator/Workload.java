package dev.redlock.sim.simulator;

import dev.redlock.Lease;
import dev.redlock.internal.RedlockInternals;
import dev.redlock.sim.SimTrace;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * One client's operations, one after another on the client's own timers (so a paused client stops in the middle of
 * whatever it was doing): an acquisition (one round, or with the client's retries), then, once it holds, one to
 * three fenced read-modify-writes of the register with think time between read and write (checking
 * {@link Lease#isValid()} first, as a careful holder does), then one of: release; manual extension(s) then release
 * (or, one time in four, forgetting it); the watchdog for a while then release; or forgetting the lease (no release:
 * it must expire). Every choice comes from the client's own seeded stream. Each acquisition counts as one operation, each fenced write as one more.
 */
final class Workload {
    private final World.Client client;
    private final Checker checker;
    private final SimTrace trace;
    private final SplittableRandom random;
    private final String[] resources;
    private int opsLeft;
    private int number;
    private boolean done;
    private final Runnable onDone;

    Workload(World.Client client, Checker checker, SimTrace trace, long seed, String[] resources, int ops, Runnable onDone) {
        this.client = client;
        this.checker = checker;
        this.trace = trace;
        this.random = new SplittableRandom(seed * 31 + client.index);
        this.resources = resources;
        this.opsLeft = ops;
        this.onDone = onDone;
    }

    boolean done() {
        return done;
    }

    void start(long delayMs) {
        client.exec.schedule(this::next, delayMs, java.util.concurrent.TimeUnit.MILLISECONDS);
    }

    private void later(long maxMs, Runnable step) {
        client.exec.schedule(step, random.nextLong(maxMs + 1) * 1000 + random.nextLong(1000),
                java.util.concurrent.TimeUnit.MICROSECONDS);
    }

    /** Runs {@code step} on the client's executor once {@code f} completes (as a callback would). */
    private <T> void then(CompletableFuture<T> f, java.util.function.BiConsumer<T, Throwable> step) {
        f.whenComplete((v, e) -> client.exec.execute(() -> step.accept(v, e)));
    }

    private void next() {
        if (opsLeft <= 0) {
            if (!done) {
                done = true;
                record("done");
                onDone.run();
            }
            return;
        }
        opsLeft--;
        String resource = resources[random.nextInt(resources.length)];
        long ttlMs = client.plan.minTtlMs + random.nextLong(client.plan.maxTtlMs - client.plan.minTtlMs + 1);
        Duration ttl = Duration.ofMillis(ttlMs);
        Acquisition a = checker.invoked(client.index, client.exec, ++number, resource);
        boolean once = random.nextInt(3) == 0;
        record("acquire " + a.label() + " ttl " + ttlMs + "ms" + (once ? " once" : ""));
        Supplier<CompletableFuture<Lease>> call = once
                ? () -> RedlockInternals.tryAcquireAsync(client.redlock, resource, ttl)
                : () -> client.redlock.acquireAsync(resource, ttl);
        then(call.get(), (lease, e) -> {
            if (lease == null) {
                record("no lease " + a.label() + ": " + (e == null ? "?" : e.getClass().getSimpleName()));
                later(20, this::next);
                return;
            }
            checker.won(a, lease);
            record("won " + a.label());
            use(a, ttl, 1 + random.nextInt(3));
        });
    }

    /** {@code writes} fenced read-modify-writes, then the end of the hold. */
    private void use(Acquisition a, Duration ttl, int writes) {
        if (writes == 0 || !a.lease.isValid()) {
            finish(a, ttl);
            return;
        }
        then(Register.read(client.store, a.resource, a.token), (value, e) -> {
            if (value == null || value < 0) {
                record("read refused " + a.label());
                finish(a, ttl);
                return;
            }
            later(ttl.toMillis() / 4, () -> {
                opsLeft--;
                then(Register.write(client.store, a.resource, a.token, value, "c" + client.index + "#" + a.number), (ok, x) -> {
                    record("write " + a.label() + " over " + value + (Boolean.TRUE.equals(ok) ? " accepted" : " refused"));
                    checker.wrote(a.resource);
                    use(a, ttl, writes - 1);
                });
            });
        });
    }

    private void finish(Acquisition a, Duration ttl) {
        int how = random.nextInt(10);
        if (how == 0) {
            record("forget " + a.label());
            later(20, this::next);
        } else if (how == 1) {
            extendThenRelease(a, ttl, 1 + random.nextInt(3));
        } else if (how == 2) {
            a.lease.keepAlive();
            long holdMs = ttl.toMillis() + random.nextLong(3 * ttl.toMillis());
            record("watchdog " + a.label() + " for " + holdMs + "ms");
            client.exec.schedule(() -> release(a), holdMs, java.util.concurrent.TimeUnit.MILLISECONDS);
        } else {
            release(a);
        }
    }

    private void extendThenRelease(Acquisition a, Duration ttl, int times) {
        if (times == 0 && random.nextInt(4) == 0) {
            // an extended lease left to expire: its last validity (counted from the extension's start) is then
            // checked up to its end against the keys it re-set
            record("forget " + a.label() + " after extending");
            later(20, this::next);
            return;
        }
        if (times == 0 || !a.lease.isValid()) {
            release(a);
            return;
        }
        later(ttl.toMillis() / 2, () -> {
            if (!a.lease.isValid()) {
                release(a);
                return;
            }
            then(RedlockInternals.extendAsync(a.lease, ttl), (ok, e) -> {
                record("extend " + a.label() + (Boolean.TRUE.equals(ok) ? " ok" : " failed"));
                if (Boolean.TRUE.equals(ok)) extendThenRelease(a, ttl, times - 1);
                else release(a);
            });
        });
    }

    private void release(Acquisition a) {
        checker.released(a);
        record("release " + a.label());
        then(a.lease.releaseAsync(), (v, e) -> later(20, this::next));
    }

    private void record(String event) {
        if (trace.enabled()) trace.record("c" + client.index + " " + event);
    }
}
