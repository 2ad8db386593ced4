package dev.redlock.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * W2 for an in-JVM system: one thread per client, each in its own client's waiting acquire. Inside the critical
 * section a shared counter detects overlaps, and fencing tokens (when issued) must strictly increase, also across
 * batches.
 */
final class ThreadContenders implements Contenders {
    private final List<LockClient> clients = new ArrayList<>();
    private final String resource;
    private final long ttlMs;
    private final CriticalSection section = new CriticalSection();

    ThreadContenders(Supplier<LockClient> factory, int clients, String resource, long ttlMs) {
        this.resource = resource;
        this.ttlMs = ttlMs;
        Contenders.open(factory, clients, this.clients, this::close);
    }

    @Override
    public Batch run(long millis) throws InterruptedException {
        section.reset();
        AtomicLong errors = new AtomicLong();
        long[] perClient = new long[clients.size()];
        long elapsed = TimedThreads.run(clients.size(), "w2-client", (id, stop) -> {
            LockClient client = clients.get(id);
            while (!stop.get()) {
                LockClient.Held h;
                try {
                    h = client.acquire(resource, ttlMs, 2_000);
                } catch (Exception e) {
                    errors.incrementAndGet();
                    continue;
                }
                if (h == null) continue;
                section.pass(h.token());
                try {
                    client.release(h);
                } catch (Exception e) {
                    errors.incrementAndGet();
                }
                if (!stop.get()) perClient[id]++;
            }
        }, millis);
        return new Batch(perClient, section.overlaps(), section.tokenRegressions(), errors.get(), elapsed);
    }

    @Override
    public void close() {
        clients.forEach(LockClient::close);
    }
}
