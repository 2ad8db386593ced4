package dev.redlock.chaos.proxy;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A tiny blocking TCP server on a free loopback port, used as a proxy's upstream in tests. Each accepted socket is
 * served by {@link Handler} on its own daemon thread (fine for a test fixture). {@link #close()} closes the
 * listener and every accepted socket.
 */
final class TcpServer implements Closeable {

    interface Handler {
        void serve(Socket socket) throws IOException, InterruptedException;
    }

    private final ServerSocket listener;
    private final List<Socket> accepted = new CopyOnWriteArrayList<>();

    private TcpServer(Handler handler) throws IOException {
        listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(() -> acceptLoop(handler), "test-upstream-" + listener.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    static TcpServer start(Handler handler) throws IOException {
        return new TcpServer(handler);
    }

    /** Echoes every byte back until the client closes. */
    static TcpServer echo() throws IOException {
        return start(socket -> {
            InputStream in = socket.getInputStream();
            OutputStream out = socket.getOutputStream();
            byte[] buffer = new byte[16 * 1024];
            int n;
            while ((n = in.read(buffer)) >= 0) {
                out.write(buffer, 0, n);
                out.flush();
            }
        });
    }

    /** On connect, writes {@code payload} in one write, then keeps the socket open until the client closes. */
    static TcpServer sendOnConnect(byte[] payload, boolean closeAfter) throws IOException {
        return start(socket -> {
            socket.getOutputStream().write(payload);
            socket.getOutputStream().flush();
            if (closeAfter) {
                socket.close();
                return;
            }
            while (socket.getInputStream().read() >= 0) {
                // hold the connection open until the peer closes it
            }
        });
    }

    int port() {
        return listener.getLocalPort();
    }

    /** {@code 127.0.0.1:<port>}, the form the proxy API takes. */
    String address() {
        return "127.0.0.1:" + port();
    }

    private void acceptLoop(Handler handler) {
        while (!listener.isClosed()) {
            Socket socket;
            try {
                socket = listener.accept();
            } catch (IOException e) {
                return;
            }
            accepted.add(socket);
            Thread worker = new Thread(() -> {
                try (socket) {
                    handler.serve(socket);
                } catch (IOException | InterruptedException e) {
                    // the test closed the connection or the server
                }
            }, "test-upstream-conn");
            worker.setDaemon(true);
            worker.start();
        }
    }

    @Override
    public void close() throws IOException {
        listener.close();
        for (Socket socket : accepted) {
            socket.close();
        }
    }
}
