package dev.redlock.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
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
    private final AtomicLong lastToken = new AtomicLong(Long.MIN_VALUE);

    ThreadContenders(Supplier<LockClient> factory, int clients, String resource, long ttlMs) {
        this.resource = resource;
        this.ttlMs = ttlMs;
        try {
            for (int c = 0; c < clients; c++) this.clients.add(factory.get());
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    @Override
    public Batch run(long millis) throws InterruptedException {
        AtomicInteger inside = new AtomicInteger();
        AtomicLong overlaps = new AtomicLong();
        AtomicLong tokenRegressions = new AtomicLong();
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
                if (inside.incrementAndGet() != 1) overlaps.incrementAndGet();
                if (h.token() >= 0) {
                    long prev = lastToken.getAndSet(h.token());
                    if (prev != Long.MIN_VALUE && h.token() <= prev) tokenRegressions.incrementAndGet();
                }
                inside.decrementAndGet();
                try {
                    client.release(h);
                } catch (Exception e) {
                    errors.incrementAndGet();
                }
                if (!stop.get()) perClient[id]++;
            }
        }, millis);
        return new Batch(perClient, overlaps.get(), tokenRegressions.get(), errors.get(), elapsed);
    }

    @Override
    public void close() {
        clients.forEach(LockClient::close);
    }
}
