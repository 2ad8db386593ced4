package dev.redlock.chaos.proxy;

import static eu.rekawek.toxiproxy.model.ToxicDirection.DOWNSTREAM;
import static eu.rekawek.toxiproxy.model.ToxicDirection.UPSTREAM;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import eu.rekawek.toxiproxy.Proxy;
import eu.rekawek.toxiproxy.model.Toxic;
import eu.rekawek.toxiproxy.model.ToxicList;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The real server's known hang: removing toxics while data flows. Here a client streams a checked byte pattern
 * through an echo proxy while toxics (including a stalling bandwidth of 0) are added and removed 20 times; every
 * control call must answer within a few seconds, and the stream must arrive complete and in order.
 */
class ToxicChurnUnderTrafficIT {

    private static final long CALL_LIMIT_MILLIS = 3_000;

    private final ProxyFixture fixture = new ProxyFixture();
    private final List<Long> callMillis = new ArrayList<>();

    @AfterEach
    void tearDown() throws IOException {
        fixture.close();
    }

    interface Call<T> {
        T run() throws IOException;
    }

    @Test
    void controlApiAnswersWhileToxicsChangeUnderTraffic() throws Exception {
        Proxy proxy = fixture.proxyTo(fixture.echo());
        Socket socket = fixture.connect(proxy);
        socket.setSoTimeout(20_000);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong sent = new AtomicLong();
        AtomicLong received = new AtomicLong();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread writer = daemon("churn-writer", () -> write(socket.getOutputStream(), stop, sent), failure);
        Thread reader = daemon("churn-reader", () -> verify(socket.getInputStream(), received), failure);

        ToxicList toxics = proxy.toxics();
        for (int cycle = 0; cycle < 20; cycle++) {
            long rate = cycle % 2 == 0 ? 0 : 2_000; // even cycles stall the downstream completely
            List<Toxic> added = new ArrayList<>();
            added.add(timed(() -> toxics.latency("lat", UPSTREAM, 15)));
            added.add(timed(() -> toxics.bandwidth("bw", DOWNSTREAM, rate)));
            added.add(timed(() -> toxics.slicer("sl", DOWNSTREAM, 512, 100)));
            timed(fixture.client::getProxies);
            Thread.sleep(25);
            for (Toxic toxic : added) {
                timed(() -> {
                    toxic.remove();
                    return null;
                });
            }
            timed(() -> fixture.client.getProxy(proxy.getName()));
        }

        long mark = received.get();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (received.get() < mark + 1_000_000 && System.nanoTime() < deadline && failure.get() == null) {
            Thread.sleep(10);
        }
        assertTrue(received.get() >= mark + 1_000_000, "traffic flows after the churn");
        stop.set(true);
        writer.join(10_000);
        while (received.get() < sent.get() && System.nanoTime() < deadline + TimeUnit.SECONDS.toNanos(10)
                && failure.get() == null) {
            Thread.sleep(10);
        }

        long slowest = callMillis.stream().mapToLong(Long::longValue).max().orElse(0);
        System.out.printf("toxic churn: %d control calls, slowest %d ms; %d bytes echoed intact%n",
                callMillis.size(), slowest, received.get());
        assertNull(failure.get(), () -> "stream broken: " + failure.get());
        assertEquals(sent.get(), received.get(), "every byte came back");
        assertTrue(toxics.getAll().isEmpty());
    }

    private <T> T timed(Call<T> call) throws IOException {
        long start = System.nanoTime();
        T result = call.run();
        long millis = ProxyFixture.millisSince(start);
        callMillis.add(millis);
        assertTrue(millis < CALL_LIMIT_MILLIS, "control call took " + millis + " ms");
        return result;
    }

    private static void write(OutputStream out, AtomicBoolean stop, AtomicLong sent) throws IOException {
        byte[] block = new byte[8_192];
        long offset = 0;
        while (!stop.get()) {
            for (int i = 0; i < block.length; i++) {
                block[i] = pattern(offset + i);
            }
            out.write(block);
            offset += block.length;
            sent.set(offset);
        }
    }

    private static void verify(InputStream in, AtomicLong received) throws IOException {
        byte[] buffer = new byte[16_384];
        long offset = 0;
        int n;
        while ((n = in.read(buffer)) >= 0) {
            for (int i = 0; i < n; i++) {
                if (buffer[i] != pattern(offset + i)) {
                    throw new AssertionError("byte " + (offset + i) + " lost or out of order");
                }
            }
            offset += n;
            received.set(offset);
        }
    }

    private static byte pattern(long offset) {
        return (byte) (offset % 251);
    }

    interface Body {
        void run() throws Exception;
    }

    private static Thread daemon(String name, Body body, AtomicReference<Throwable> failure) {
        Thread thread = new Thread(() -> {
            try {
                body.run();
            } catch (Throwable t) {
                failure.compareAndSet(null, t);
            }
        }, name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }
}
