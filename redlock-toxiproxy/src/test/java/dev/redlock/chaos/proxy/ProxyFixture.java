package dev.redlock.chaos.proxy;

import eu.rekawek.toxiproxy.Proxy;
import eu.rekawek.toxiproxy.ToxiproxyClient;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One {@link ToxiproxyServer} on a free port, a {@code toxiproxy-java} client for it, and everything a test opens
 * through it (upstream servers, client sockets), closed in reverse order by {@link #close()}.
 */
final class ProxyFixture implements AutoCloseable {

    private static final AtomicInteger NAMES = new AtomicInteger();

    final ToxiproxyServer server = ToxiproxyServer.start("127.0.0.1", 0);
    final ToxiproxyClient client = new ToxiproxyClient("127.0.0.1", server.port());
    private final Deque<Closeable> resources = new ArrayDeque<>();

    TcpServer track(TcpServer upstream) {
        resources.push(upstream);
        return upstream;
    }

    TcpServer echo() throws IOException {
        return track(TcpServer.echo());
    }

    /** A proxy on a free loopback port in front of {@code upstream}. */
    Proxy proxyTo(TcpServer upstream) throws IOException {
        return client.createProxy("p" + NAMES.incrementAndGet(), "127.0.0.1:0", upstream.address());
    }

    /** A client socket connected to the proxy's listen address, with a 5 s read timeout. */
    Socket connect(Proxy proxy) throws IOException {
        Socket socket = new Socket();
        resources.push(socket);
        socket.setTcpNoDelay(true);
        socket.setSoTimeout(5_000);
        socket.connect(address(proxy.getListen()), 2_000);
        return socket;
    }

    static InetSocketAddress address(String hostPort) {
        int colon = hostPort.lastIndexOf(':');
        return new InetSocketAddress(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1)));
    }

    static int port(Proxy proxy) {
        return address(proxy.getListen()).getPort();
    }

    /** Writes {@code message} and reads the same number of bytes back; returns the round trip in ms. */
    static long roundTripMillis(Socket socket, byte[] message) throws IOException {
        long start = System.nanoTime();
        socket.getOutputStream().write(message);
        socket.getOutputStream().flush();
        byte[] back = readExactly(socket, message.length);
        long elapsed = (System.nanoTime() - start) / 1_000_000;
        if (!Arrays.equals(message, back)) {
            throw new AssertionError("echo returned different bytes");
        }
        return elapsed;
    }

    static byte[] readExactly(Socket socket, int length) throws IOException {
        byte[] data = new byte[length];
        InputStream in = socket.getInputStream();
        int off = 0;
        while (off < length) {
            int n = in.read(data, off, length - off);
            if (n < 0) {
                throw new IOException("EOF after " + off + " of " + length + " bytes");
            }
            off += n;
        }
        return data;
    }

    /** Reads until EOF (a reset propagates as an exception). */
    static byte[] readToEof(Socket socket) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[4096];
        int n;
        while ((n = socket.getInputStream().read(buffer)) >= 0) {
            out.write(buffer, 0, n);
        }
        return out.toByteArray();
    }

    /**
     * True if nothing arrives and the connection stays open for {@code millis}: the read times out rather than
     * returning data or EOF.
     */
    static boolean silentAndOpenFor(Socket socket, int millis) throws IOException {
        int previous = socket.getSoTimeout();
        socket.setSoTimeout(millis);
        try {
            socket.getInputStream().read();
            return false;
        } catch (SocketTimeoutException e) {
            return true;
        } finally {
            socket.setSoTimeout(previous);
        }
    }

    static long millisSince(long startNanos) {
        return (System.nanoTime() - startNanos) / 1_000_000;
    }

    @Override
    public void close() throws IOException {
        IOException first = null;
        while (!resources.isEmpty()) {
            try {
                resources.pop().close();
            } catch (IOException e) {
                first = first == null ? e : first;
            }
        }
        server.close();
        if (first != null) {
            throw first;
        }
    }
}
