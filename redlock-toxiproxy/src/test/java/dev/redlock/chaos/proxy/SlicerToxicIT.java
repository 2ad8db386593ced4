package dev.redlock.chaos.proxy;

import static dev.redlock.chaos.proxy.ProxyFixture.millisSince;
import static eu.rekawek.toxiproxy.model.ToxicDirection.DOWNSTREAM;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import eu.rekawek.toxiproxy.Proxy;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The slicer toxic: one 100-byte write arrives as many small reads, spaced by the delay, bytes intact. */
class SlicerToxicIT {

    private final ProxyFixture fixture = new ProxyFixture();

    @AfterEach
    void tearDown() throws IOException {
        fixture.close();
    }

    @Test
    void splitsChunksIntoDelayedPieces() throws IOException {
        byte[] payload = new byte[100];
        for (int i = 0; i < payload.length; i++) {
            payload[i] = (byte) i;
        }
        Proxy proxy = fixture.proxyTo(fixture.track(TcpServer.sendOnConnect(payload, false)));
        proxy.toxics().slicer("slices", DOWNSTREAM, 10, 20_000); // 10-byte pieces, 20 ms apart

        long start = System.nanoTime();
        Socket socket = fixture.connect(proxy);
        InputStream in = socket.getInputStream();
        ByteArrayOutputStream received = new ByteArrayOutputStream();
        List<Integer> reads = new ArrayList<>();
        byte[] buffer = new byte[1024];
        while (received.size() < payload.length) {
            int n = in.read(buffer);
            if (n < 0) {
                break;
            }
            reads.add(n);
            received.write(buffer, 0, n);
        }
        long elapsed = millisSince(start);

        System.out.printf("slicer 10 B / 20 ms: 100 bytes in %d reads %s over %d ms%n", reads.size(), reads, elapsed);
        assertArrayEquals(payload, received.toByteArray(), "pieces keep every byte in order");
        assertTrue(reads.size() >= 5, "one write arrived as several reads: " + reads);
        assertTrue(elapsed >= 9 * 20 - 10, "9 gaps of 20 ms between 10 pieces: " + elapsed);
    }

    @Test
    void sizeVariationStillDeliversEveryByte() throws IOException {
        byte[] payload = new byte[5_000];
        for (int i = 0; i < payload.length; i++) {
            payload[i] = (byte) (i * 7);
        }
        Proxy proxy = fixture.proxyTo(fixture.echo());
        proxy.toxics().slicer("slices", DOWNSTREAM, 50, 0).setSizeVariation(30);
        Socket socket = fixture.connect(proxy);
        socket.getOutputStream().write(payload);
        assertArrayEquals(payload, ProxyFixture.readExactly(socket, payload.length));
    }
}
