package dev.redlock.chaos.proxy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import eu.rekawek.toxiproxy.Proxy;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The in-JVM server's harness-only mode: a proxy moves its open client connections to a new upstream, the client
 * sockets kept (as a proxy in front of a failed-over master that keeps connections does), and new connections dial
 * the new upstream.
 */
class UpstreamSwitchIT {

    /** Answers each chunk it reads with its one-byte tag. */
    private static TcpServer tagging(char tag) throws IOException {
        return TcpServer.start(socket -> {
            byte[] buffer = new byte[1024];
            while (socket.getInputStream().read(buffer) >= 0) {
                socket.getOutputStream().write(tag);
                socket.getOutputStream().flush();
            }
        });
    }

    private static String ask(Socket socket) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write('?');
        out.flush();
        return new String(ProxyFixture.readExactly(socket, 1), StandardCharsets.US_ASCII);
    }

    @Test
    void openConnectionsKeepTheirClientSocketAndReachTheNewUpstream() throws IOException {
        try (ProxyFixture f = new ProxyFixture()) {
            TcpServer first = f.track(tagging('A'));
            TcpServer second = f.track(tagging('B'));
            Proxy proxy = f.proxyTo(first);
            Socket kept = f.connect(proxy);
            Socket other = f.connect(proxy);
            assertEquals("A", ask(kept));
            assertEquals("A", ask(other));

            assertEquals(2, f.server.switchUpstream(proxy.getName(), second.address()), "connections moved");
            first.close();   // the old upstream dies: the moved connections must not notice

            assertEquals("B", ask(kept), "the same client socket now reaches the new upstream");
            assertEquals("B", ask(other));
            assertEquals("B", ask(f.connect(proxy)), "a new connection dials the new upstream");
            assertEquals(second.address(), f.client.getProxy(proxy.getName()).getUpstream());
        }
    }

    @Test
    void anUnknownProxyOrABadAddressIsRefusedByName() throws IOException {
        try (ProxyFixture f = new ProxyFixture()) {
            Proxy proxy = f.proxyTo(f.echo());
            IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                    () -> f.server.switchUpstream("no-such-proxy", "127.0.0.1:1"));
            assertEquals(true, unknown.getMessage().contains("no-such-proxy"), unknown.getMessage());
            IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
                    () -> f.server.switchUpstream(proxy.getName(), "not an address"));
            assertEquals(true, bad.getMessage().contains("upstream"), bad.getMessage());
            Socket s = f.connect(proxy);
            s.getOutputStream().write(new byte[] {1, 2});
            assertArrayEquals(new byte[] {1, 2}, ProxyFixture.readExactly(s, 2), "the proxy still works");
        }
    }
}
