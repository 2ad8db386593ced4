package dev.redlock.sim;

import dev.redlock.testkit.Resp;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A blocking RESP2 connection for the differential test (commands written by the testkit's {@link Resp#write}),
 * reading replies with their structure: {@code Long}, bulk {@code String}, {@link StatusReply}, {@link ErrorReply},
 * {@code List}, null. (The testkit's reader flattens arrays and nil, which a comparison cannot use.)
 */
final class RespWire implements AutoCloseable {
    private final Socket socket;
    private final OutputStream out;
    private final InputStream in;

    RespWire(int port) {
        try {
            socket = new Socket();
            socket.connect(new InetSocketAddress("127.0.0.1", port), 2000);
            socket.setSoTimeout(10_000);
            socket.setTcpNoDelay(true);
            out = socket.getOutputStream();
            in = new BufferedInputStream(socket.getInputStream());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    Object call(String... args) {
        try {
            Resp.write(out, args);
            return read();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Object read() throws IOException {
        String line = line();
        String rest = line.substring(1);
        switch (line.charAt(0)) {
            case '+':
                return new StatusReply(rest);
            case '-':
                return new ErrorReply(rest);
            case ':':
                return Long.parseLong(rest);
            case '$': {
                int n = Integer.parseInt(rest);
                if (n < 0) return null;
                byte[] data = in.readNBytes(n + 2);
                return new String(data, 0, n, StandardCharsets.UTF_8);
            }
            case '*': {
                int n = Integer.parseInt(rest);
                if (n < 0) return null;
                List<Object> l = new ArrayList<>(n);
                for (int i = 0; i < n; i++) l.add(read());
                return l;
            }
            default:
                throw new IOException("unexpected reply line: " + line);
        }
    }

    private String line() throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        int c;
        while ((c = in.read()) != -1) {
            if (c == '\r') {
                in.read();
                return b.toString(StandardCharsets.UTF_8);
            }
            b.write(c);
        }
        throw new IOException("connection closed");
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing
        }
    }
}
