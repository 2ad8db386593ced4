package dev.redlock.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/** Minimal RESP2 reply reader for fixture commands: arrays are flattened to newline-separated text. */
final class RespReader {
    private RespReader() {}

    static String read(InputStream in) throws IOException {
        String line = line(in);
        if (line.isEmpty()) throw new IOException("empty reply");
        char type = line.charAt(0);
        String rest = line.substring(1);
        switch (type) {
            case '+':
            case ':':
                return rest;
            case '-':
                return "ERR:" + rest;
            case '$': {
                int len = Integer.parseInt(rest);
                if (len < 0) return "";
                byte[] b = in.readNBytes(len + 2);
                return new String(b, 0, len, StandardCharsets.UTF_8);
            }
            case '*': {
                int n = Integer.parseInt(rest);
                StringBuilder sb = new StringBuilder();
                for (int i = 0; i < n; i++) {
                    if (i > 0) sb.append('\n');
                    sb.append(read(in));
                }
                return sb.toString();
            }
            default:
                throw new IOException("unexpected reply: " + line);
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
