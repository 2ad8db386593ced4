package dev.redlock.chaos.proxy;

import static dev.redlock.chaos.proxy.ProxyFixture.millisSince;
import static dev.redlock.chaos.proxy.ProxyFixture.readExactly;
import static dev.redlock.chaos.proxy.ProxyFixture.readToEof;
import static dev.redlock.chaos.proxy.ProxyFixture.silentAndOpenFor;
import static eu.rekawek.toxiproxy.model.ToxicDirection.DOWNSTREAM;
import static eu.rekawek.toxiproxy.model.ToxicDirection.UPSTREAM;
import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import eu.rekawek.toxiproxy.Proxy;
import eu.rekawek.toxiproxy.model.toxic.Timeout;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The toxics that end connections: slow_close, timeout, reset_peer and limit_data, on real sockets. */
class ClosingToxicsIT {

    private static final long SLACK = 10;

    private final ProxyFixture fixture = new ProxyFixture();

    @AfterEach
    void tearDown() throws IOException {
        fixture.close();
    }

    @Test
    void slowCloseDelaysTheCloseNotTheData() throws IOException {
        TcpServer upstream = fixture.track(TcpServer.sendOnConnect("bye".getBytes(US_ASCII), true));
        Proxy proxy = fixture.proxyTo(upstream);
        proxy.toxics().slowClose("slow", DOWNSTREAM, 400);

        long start = System.nanoTime();
        Socket socket = fixture.connect(proxy);
        assertArrayEquals("bye".getBytes(US_ASCII), readExactly(socket, 3));
        long dataAt = millisSince(start);
        assertEquals(-1, socket.getInputStream().read());
        long eofAt = millisSince(start);

        System.out.printf("slow_close 400 ms: data after %d ms, EOF after %d ms%n", dataAt, eofAt);
        assertTrue(eofAt >= 400 - SLACK, "EOF held for the delay: " + eofAt);
    }

    @Test
    void timeoutDropsDataAndClosesAfterTheTimeout() throws IOException {
        Proxy proxy = fixture.proxyTo(fixture.echo());
        proxy.toxics().timeout("hole", DOWNSTREAM, 400);
        long start = System.nanoTime();
        Socket socket = fixture.connect(proxy);
        socket.getOutputStream().write("lost".getBytes(US_ASCII));

        byte[] received = readToEof(socket);
        long closedAt = millisSince(start);

        System.out.printf("timeout 400 ms: %d bytes received, closed after %d ms%n", received.length, closedAt);
        assertEquals(0, received.length, "timeout drops data, it does not delay it");
        assertTrue(closedAt >= 400 - SLACK, "closed only after the timeout: " + closedAt);
    }

    @Test
    void timeoutClockRestartsOnEveryDroppedChunk() throws Exception {
        Proxy proxy = fixture.proxyTo(fixture.echo());
        proxy.toxics().timeout("hole", UPSTREAM, 300);
        Socket socket = fixture.connect(proxy);
        OutputStream out = socket.getOutputStream();

        long start = System.nanoTime();
        long lastChunk = start;
        for (int i = 0; i < 9; i++) { // a chunk every 100 ms for 900 ms: 3x the timeout
            out.write(i);
            out.flush();
            lastChunk = System.nanoTime();
            Thread.sleep(100);
        }
        assertTrue(silentAndOpenFor(socket, 50), "still open at " + millisSince(start) + " ms: clock restarted");
        long stillOpenAt = millisSince(start);
        assertEquals(0, readToEof(socket).length);
        long closedAfterLast = millisSince(lastChunk);

        System.out.printf("timeout 300 ms, a chunk every 100 ms: open past %d ms, closed %d ms after the last"
                + " chunk%n", stillOpenAt, closedAfterLast);
        assertTrue(closedAfterLast >= 300 - SLACK, "closed a timeout after the last chunk: " + closedAfterLast);
    }

    @Test
    void timeoutZeroNeverClosesButRemovingItDoes() throws IOException {
        Proxy proxy = fixture.proxyTo(fixture.echo());
        Timeout timeout = proxy.toxics().timeout("hole", DOWNSTREAM, 0);
        Socket socket = fixture.connect(proxy);
        socket.getOutputStream().write("lost".getBytes(US_ASCII));

        assertTrue(silentAndOpenFor(socket, 700), "timeout 0: data dropped, connection kept");

        timeout.remove();
        assertEquals(0, readToEof(socket).length, "removing the timeout toxic closes its connections");
    }

    @Test
    void resetPeerResetsTheConnectionAfterTheTimeout() throws IOException {
        Proxy proxy = fixture.proxyTo(fixture.echo());
        proxy.toxics().resetPeer("rst", DOWNSTREAM, 300);
        Socket socket = fixture.connect(proxy);

        long start = System.nanoTime();
        socket.getOutputStream().write("ping".getBytes(US_ASCII));
        SocketException reset = assertThrows(SocketException.class, () -> readToEof(socket));
        long resetAt = millisSince(start);

        System.out.printf("reset_peer 300 ms: '%s' after %d ms%n", reset.getMessage(), resetAt);
        assertTrue(reset.getMessage().toLowerCase().contains("reset"), reset.getMessage());
        assertTrue(resetAt >= 300 - SLACK, "reset after the timeout: " + resetAt);
    }

    @Test
    void limitDataForwardsExactlyTheLimitThenCloses() throws IOException {
        byte[] payload = new byte[1_000];
        for (int i = 0; i < payload.length; i++) {
            payload[i] = (byte) i;
        }
        Proxy proxy = fixture.proxyTo(fixture.track(TcpServer.sendOnConnect(payload, false)));
        proxy.toxics().limitData("cap", DOWNSTREAM, 100);

        byte[] received = readToEof(fixture.connect(proxy));

        System.out.printf("limit_data 100: received %d of %d bytes, then EOF%n", received.length, payload.length);
        assertArrayEquals(Arrays.copyOf(payload, 100), received);
    }
}
