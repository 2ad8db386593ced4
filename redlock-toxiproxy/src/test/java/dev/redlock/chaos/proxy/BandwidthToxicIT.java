package dev.redlock.chaos.proxy;

import static dev.redlock.chaos.proxy.ProxyFixture.millisSince;
import static dev.redlock.chaos.proxy.ProxyFixture.readExactly;
import static dev.redlock.chaos.proxy.ProxyFixture.silentAndOpenFor;
import static eu.rekawek.toxiproxy.model.ToxicDirection.DOWNSTREAM;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import eu.rekawek.toxiproxy.Proxy;
import eu.rekawek.toxiproxy.model.toxic.Bandwidth;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The bandwidth toxic: throughput limit measured on real bytes, and rate 0 as a stall that keeps connections. */
class BandwidthToxicIT {

    private final ProxyFixture fixture = new ProxyFixture();

    @AfterEach
    void tearDown() throws IOException {
        fixture.close();
    }

    @Test
    void limitsThroughput() throws IOException {
        byte[] payload = new byte[50_000];
        Arrays.fill(payload, (byte) 7);
        Proxy proxy = fixture.proxyTo(fixture.track(TcpServer.sendOnConnect(payload, false)));
        proxy.toxics().bandwidth("bw", DOWNSTREAM, 100); // 100 KB/s = 10 000 bytes per 100 ms slice

        long start = System.nanoTime();
        Socket socket = fixture.connect(proxy);
        byte[] received = readExactly(socket, payload.length);
        long elapsed = millisSince(start);

        System.out.printf("bandwidth 100 KB/s: 50 000 bytes in %d ms (%.1f KB/s)%n",
                elapsed, payload.length / (double) Math.max(elapsed, 1));
        assertArrayEquals(payload, received);
        assertTrue(elapsed >= 450, "50 000 bytes at 100 KB/s take >= 500 ms, took " + elapsed);
    }

    @Test
    void rateZeroStallsButKeepsTheConnectionOpen() throws IOException {
        Proxy proxy = fixture.proxyTo(fixture.echo());
        Bandwidth bandwidth = proxy.toxics().bandwidth("cut", DOWNSTREAM, 0);
        Socket socket = fixture.connect(proxy);
        byte[] message = "stalled".getBytes(StandardCharsets.US_ASCII);
        socket.getOutputStream().write(message);

        assertTrue(silentAndOpenFor(socket, 700), "no data and no EOF while rate is 0");

        bandwidth.setRate(1_000);
        assertArrayEquals(message, readExactly(socket, message.length), "held data flows once the rate is raised");
        ProxyFixture.roundTripMillis(socket, new byte[] {9}); // the connection is still usable
    }
}
