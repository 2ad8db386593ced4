package dev.redlock.testkit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
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
