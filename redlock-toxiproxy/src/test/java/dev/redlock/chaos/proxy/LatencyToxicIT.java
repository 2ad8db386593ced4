package dev.redlock.chaos.proxy;

import static dev.redlock.chaos.proxy.ProxyFixture.millisSince;
import static dev.redlock.chaos.proxy.ProxyFixture.readExactly;
import static dev.redlock.chaos.proxy.ProxyFixture.roundTripMillis;
import static eu.rekawek.toxiproxy.model.ToxicDirection.DOWNSTREAM;
import static eu.rekawek.toxiproxy.model.ToxicDirection.UPSTREAM;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import eu.rekawek.toxiproxy.Proxy;
import eu.rekawek.toxiproxy.model.toxic.Latency;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The latency toxic measured on echo round trips. Lower bounds are tight; upper bounds only where they prove a point. */
class LatencyToxicIT {

    private static final long SLACK = 10; // timer granularity, in ms

    private final ProxyFixture fixture = new ProxyFixture();

    @AfterEach
    void tearDown() throws IOException {
        fixture.close();
    }

    @Test
    void delaysEachDirection() throws IOException {
        Proxy proxy = fixture.proxyTo(fixture.echo());
        proxy.toxics().latency("down", DOWNSTREAM, 200);
        Socket socket = fixture.connect(proxy);

        long downOnly = roundTripMillis(socket, new byte[] {1, 2, 3});
        System.out.printf("latency 200 ms downstream: round trip %d ms%n", downOnly);
        assertTrue(downOnly >= 200 - SLACK, "round trip " + downOnly + " ms");

        proxy.toxics().latency("up", UPSTREAM, 100);
        long both = roundTripMillis(socket, new byte[] {4});
        System.out.printf("latency 100 ms up + 200 ms down: round trip %d ms%n", both);
        assertTrue(both >= 300 - SLACK, "round trip " + both + " ms");
    }

    @Test
    void keepsOrderAndDelaysDoNotAddUp() throws Exception {
        Proxy proxy = fixture.proxyTo(fixture.echo());
        proxy.toxics().latency("jittery", DOWNSTREAM, 200).setJitter(100); // each chunk 100..300 ms
        Socket socket = fixture.connect(proxy);
        OutputStream out = socket.getOutputStream();
        int messages = 10;
        byte[] expected = new byte[messages];

        long start = System.nanoTime();
        for (int i = 0; i < messages; i++) {
            expected[i] = (byte) i;
            out.write(i);
            out.flush();
            Thread.sleep(20);
        }
        byte[] received = readExactly(socket, messages);
        long elapsed = millisSince(start);

        System.out.printf("10 chunks 20 ms apart, latency 200+-100 ms: all back after %d ms%n", elapsed);
        assertArrayEquals(expected, received, "chunks keep their order despite jitter");
        assertTrue(elapsed >= 180 + 100 - SLACK, "last chunk sent at >= 180 ms, delayed >= 100 ms: " + elapsed);
        // Serial delays would take >= 10 x 100 ms; concurrent ones end near 180 + 300 ms.
        assertTrue(elapsed < 1_000, "delays must not add up, took " + elapsed + " ms");
    }

    @Test
    void changesApplyToOpenConnections() throws IOException {
        Proxy proxy = fixture.proxyTo(fixture.echo());
        Socket socket = fixture.connect(proxy);
        long before = roundTripMillis(socket, new byte[] {1});

        Latency latency = proxy.toxics().latency("lat", DOWNSTREAM, 150);
        long added = roundTripMillis(socket, new byte[] {2});
        latency.setLatency(300);
        long raised = roundTripMillis(socket, new byte[] {3});
        latency.setLatency(5_000);
        latency.remove();
        long removed = roundTripMillis(socket, new byte[] {4});

        System.out.printf("open connection: no toxic %d ms, +150 ms %d ms, 300 ms %d ms, removed %d ms%n",
                before, added, raised, removed);
        assertTrue(added >= 150 - SLACK, "added toxic applies: " + added);
        assertTrue(raised >= 300 - SLACK, "updated toxic applies: " + raised);
        assertTrue(removed < 4_000, "removed toxic no longer delays (5 s latency): " + removed);
    }
}
