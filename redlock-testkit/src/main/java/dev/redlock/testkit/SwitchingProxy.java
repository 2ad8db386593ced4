package dev.redlock.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP relay on a free loopback port in front of one Redis node that, like a protocol-level proxy in front of a
 * failover group, <b>keeps its clients' connections when the backend changes</b>: {@link #switchTo(int)} closes
 * every client's upstream connection and opens a new one to the new backend, while the client's own socket stays
 * open. Anything a client learned at its connection handshake (the {@code run_id} of {@code INFO server}) then
 * describes the old backend. A backend that dies leaves its clients connected and waiting for the switch.
 *
 * <p>Test seam only: switch while no request is in flight (a request in flight during a switch loses its reply).
 * Byte-for-byte relay, one thread per direction per connection, daemon threads; {@link #close()} closes everything.
 */
public final class SwitchingProxy implements AutoCloseable {
    private final ServerSocket server;
    private final List<Relay> relays = new CopyOnWriteArrayList<>();
    private volatile int backendPort;
    private volatile boolean closed;

    private SwitchingProxy(int backendPort) throws IOException {
        this.backendPort = backendPort;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread accept = new Thread(this::acceptLoop, "switching-proxy-" + server.getLocalPort() + "-accept");
        accept.setDaemon(true);
        accept.start();
    }

    /** A proxy on a free loopback port relaying to {@code 127.0.0.1:backendPort}. */
    public static SwitchingProxy to(int backendPort) {
        try {
            return new SwitchingProxy(backendPort);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the proxy's port", e);
        }
    }

    /** The port clients connect to. */
    public int port() {
        return server.getLocalPort();
    }

    /** {@code redis://127.0.0.1:<port>}, the address clients use. */
    public String uri() {
        return "redis://127.0.0.1:" + port();
    }

    /** Connections currently open from clients. */
    public int clients() {
        return (int) relays.stream().filter(r -> !r.closed).count();
    }

    /**
     * Moves every open client connection (and every later one) to {@code 127.0.0.1:newBackendPort}: each client's
     * upstream socket is closed and a new one opened, the client's socket stays open.
     */
    public void switchTo(int newBackendPort) {
        backendPort = newBackendPort;
        for (Relay r : relays) r.reconnectUpstream();
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket client = server.accept();
                client.setTcpNoDelay(true);
                Relay r = new Relay(client);
                relays.add(r);
                r.start();
            } catch (IOException e) {
                if (closed) return;
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        try {
            server.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        for (Relay r : relays) r.close();
        relays.clear();
    }

    /** One client connection and its current upstream. */
    private final class Relay {
        private final Socket client;
        private volatile Socket upstream;
        private volatile boolean closed;

        Relay(Socket client) {
            this.client = client;
        }

        void start() throws IOException {
            upstream = connectUpstream();
            pump(upstream);
            Thread up = new Thread(this::clientToUpstream, "switching-proxy-" + port() + "-up");
            up.setDaemon(true);
            up.start();
        }

        private Socket connectUpstream() throws IOException {
            Socket s = new Socket();
            s.setTcpNoDelay(true);
            s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), backendPort), 2000);
            return s;
        }

        /** Upstream to client, until that upstream ends; the client stays connected. */
        private void pump(Socket from) {
            Thread t = new Thread(() -> {
                byte[] buf = new byte[16384];
                try (InputStream in = from.getInputStream()) {
                    OutputStream out = client.getOutputStream();
                    for (int n; (n = in.read(buf)) >= 0; ) {
                        synchronized (client) {
                            out.write(buf, 0, n);
                            out.flush();
                        }
                    }
                } catch (IOException e) {
                    // this upstream ended (switched, or its backend died): the client waits for the next one
                }
            }, "switching-proxy-" + port() + "-down");
            t.setDaemon(true);
            t.start();
        }

        private void clientToUpstream() {
            byte[] buf = new byte[16384];
            try (InputStream in = client.getInputStream()) {
                for (int n; (n = in.read(buf)) >= 0; ) {
                    try {
                        Socket u = upstream;
                        u.getOutputStream().write(buf, 0, n);
                        u.getOutputStream().flush();
                    } catch (IOException e) {
                        // the backend is gone: the request is lost, as with a proxy whose backend died
                    }
                }
            } catch (IOException e) {
                // the client went away
            } finally {
                close();
            }
        }

        synchronized void reconnectUpstream() {
            if (closed) return;
            Socket old = upstream;
            try {
                old.close();
            } catch (IOException ignored) {
                // replaced anyway
            }
            try {
                upstream = connectUpstream();
                pump(upstream);
            } catch (IOException e) {
                close();
            }
        }

        synchronized void close() {
            closed = true;
            try {
                client.close();
            } catch (IOException ignored) {
                // closing anyway
            }
            Socket u = upstream;
            try {
                if (u != null) u.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }
}
