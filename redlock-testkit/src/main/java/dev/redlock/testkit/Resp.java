package dev.redlock.testkit;

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
 * Minimal RESP2 for fixture commands (not for the product, which talks to Redis through Redisson): writes a command
 * as an array of bulk strings; reads one reply with arrays flattened to newline-separated text, an error reply as
 * {@code "ERR:<message>"} and nil as {@code ""}.
 */
public final class Resp {
    private Resp() {}

    /**
     * Sends one command to the Redis at {@code host:port} on a new connection (after {@code AUTH} when
     * {@code password} is given, {@code SELECT} when {@code db} is not 0) and returns its reply as {@link #read}
     * gives it.
     *
     * @throws UncheckedIOException when the node cannot be reached or refuses AUTH/SELECT
     */
    public static String command(String host, int port, String user, String password, int db, String... args) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(host, port), 2000);
            s.setSoTimeout(5000);
            OutputStream out = s.getOutputStream();
            InputStream in = s.getInputStream();
            int setup = 0;
            if (password != null) {
                write(out, user == null ? new String[] {"AUTH", password} : new String[] {"AUTH", user, password});
                setup++;
            }
            if (db != 0) {
                write(out, "SELECT", Integer.toString(db));
                setup++;
            }
            write(out, args);
            for (int i = 0; i < setup; i++) {
                String r = read(in);
                if (r.startsWith("ERR:")) throw new IOException("AUTH/SELECT refused: " + r);
            }
            return read(in);
        } catch (IOException e) {
            throw new UncheckedIOException("command " + args[0] + " on " + host + ":" + port + " failed", e);
        }
    }

    /**
     * Whether a Redis answers on {@code host:port} within {@code timeoutMillis}: {@code PONG}, or {@code NOAUTH}
     * (it is up and wants a password).
     */
    public static boolean answersPing(String host, int port, int timeoutMillis) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(host, port), timeoutMillis);
            s.setSoTimeout(timeoutMillis);
            write(s.getOutputStream(), "PING");
            String reply = read(s.getInputStream());
            return reply.equals("PONG") || reply.startsWith("ERR:NOAUTH");
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** Writes one command and flushes. */
    public static void write(OutputStream out, String... args) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.writeBytes(("*" + args.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
        for (String a : args) {
            byte[] bytes = a.getBytes(StandardCharsets.UTF_8);
            b.writeBytes(("$" + bytes.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
            b.writeBytes(bytes);
            b.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
        }
        out.write(b.toByteArray());
        out.flush();
    }

    /** Reads one reply. */
    public static String read(InputStream in) throws IOException {
        String line = line(in);
        if (line.isEmpty()) throw new IOException("empty reply (connection closed?)");
        String rest = line.substring(1);
        switch (line.charAt(0)) {
            case '+', ':' -> {
                return rest;
            }
            case '-' -> {
                return "ERR:" + rest;
            }
            case '$' -> {
                int len = Integer.parseInt(rest);
                if (len < 0) return "";
                byte[] b = in.readNBytes(len + 2);
                if (b.length < len + 2) throw new IOException("truncated reply");
                return new String(b, 0, len, StandardCharsets.UTF_8);
            }
            case '*' -> {
                int n = Integer.parseInt(rest);
                List<String> items = new ArrayList<>();
                for (int i = 0; i < n; i++) items.add(read(in));
                return String.join("\n", items);
            }
            default -> throw new IOException("unexpected reply: " + line);
        }
    }

    private static String line(InputStream in) throws IOException {
        StringBuilder sb = new StringBuilder();
        int c;
        while ((c = in.read()) != -1) {
            if (c == '\r') {
                in.read();
                break;
            }
            sb.append((char) c);
        }
        return sb.toString();
    }
}
