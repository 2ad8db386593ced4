package dev.redlock.chaos.proxy;

import static dev.redlock.chaos.proxy.ProxyFixture.readExactly;
import static dev.redlock.chaos.proxy.ProxyFixture.roundTripMillis;
import static eu.rekawek.toxiproxy.model.ToxicDirection.DOWNSTREAM;
import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.testkit.Ports;
import eu.rekawek.toxiproxy.Proxy;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Proxies on real sockets: pass-through, failed dials, close propagation, disable/enable and delete. */
class ProxyLifecycleIT {

    private final ProxyFixture fixture = new ProxyFixture();

    @AfterEach
    void tearDown() throws IOException {
        fixture.close();
    }

    @Test
    void passesBytesBothWaysUnchanged() throws IOException {
        Proxy proxy = fixture.proxyTo(fixture.echo());
        Socket socket = fixture.connect(proxy);
        byte[] big = new byte[1_000_000];
        for (int i = 0; i < big.length; i++) {
            big[i] = (byte) (i * 31);
        }
        roundTripMillis(socket, "hello".getBytes(US_ASCII));
        CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
            try {
                socket.getOutputStream().write(big);
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
        });
        assertArrayEquals(big, readExactly(socket, big.length), "1 MB echoed intact and in order");
        writer.join();
    }

    @Test
    void failedDialClosesTheClient() throws IOException {
        int deadPort = Ports.free();
        Proxy proxy = fixture.client.createProxy("dead", "127.0.0.1:0", "127.0.0.1:" + deadPort);
        Socket socket = fixture.connect(proxy);
        assertClosedByPeer(socket);
    }

    @Test
    void upstreamCloseReachesTheClientAndClientCloseReachesTheUpstream() throws Exception {
        CompletableFuture<Integer> upstreamSawEof = new CompletableFuture<>();
        TcpServer upstream = fixture.track(TcpServer.start(s -> {
            s.getOutputStream().write('!');
            upstreamSawEof.complete(s.getInputStream().read());
        }));
        Proxy proxy = fixture.proxyTo(upstream);

        Socket first = fixture.connect(proxy);
        assertEquals('!', first.getInputStream().read());
        first.close();
        assertEquals(-1, upstreamSawEof.get(5, TimeUnit.SECONDS), "client close reached the upstream");

        TcpServer closer = fixture.track(TcpServer.sendOnConnect("bye".getBytes(US_ASCII), true));
        Socket second = fixture.connect(fixture.proxyTo(closer));
        assertEquals("bye", new String(ProxyFixture.readToEof(second), US_ASCII), "upstream close reached client");
    }

    @Test
    void disablingClosesConnectionsRefusesNewOnesAndKeepsToxics() throws IOException {
        Proxy proxy = fixture.proxyTo(fixture.echo());
        proxy.toxics().latency("lat", DOWNSTREAM, 1);
        String listen = proxy.getListen();
        Socket open = fixture.connect(proxy);
        roundTripMillis(open, new byte[] {1});

        proxy.disable();

        assertClosedByPeer(open);
        Socket refused = new Socket();
        try (refused) {
            assertThrows(ConnectException.class,
                    () -> refused.connect(ProxyFixture.address(listen), 2_000), "listener is closed");
        }
        assertEquals(1, proxy.toxics().getAll().size(), "toxics are kept while disabled");

        proxy.enable();
        assertEquals(listen, proxy.getListen(), "re-enabled on the same port");
        Socket again = fixture.connect(proxy);
        roundTripMillis(again, new byte[] {2});
    }

    @Test
    void deletingClosesConnectionsAndFreesThePort() throws IOException {
        Proxy proxy = fixture.proxyTo(fixture.echo());
        Socket open = fixture.connect(proxy);
        roundTripMillis(open, new byte[] {1});
        int port = ProxyFixture.port(proxy);

        proxy.delete();

        assertClosedByPeer(open);
        try (ServerSocket rebound = new ServerSocket()) {
            rebound.setReuseAddress(true);
            rebound.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            assertTrue(rebound.isBound(), "port " + port + " free right after DELETE");
        }
    }

    /** The peer closed (EOF) or reset the connection; either way no data arrives. */
    static void assertClosedByPeer(Socket socket) throws IOException {
        InputStream in = socket.getInputStream();
        try {
            assertEquals(-1, in.read(), "expected the connection to be closed");
        } catch (SocketException reset) {
            // a reset is a close too
        }
    }
}
