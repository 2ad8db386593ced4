package dev.redlock.internal;

import dev.redlock.internal.resp.RedisErrorException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Internal, not API: what running a Lua script by {@code EVALSHA} (and again by {@code EVAL} when the node does not
 * have it) needs, shared by the lock's scripts and the fenced store's. Anything here may change or disappear in any
 * release; applications must not use it.
 */
public final class Scripts {
    private Scripts() {}

    /** The SHA-1 of a script's source, as Redis names it: 40 lower-case hex digits. */
    public static String sha1(String source) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(source.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is required of every Java platform", e);
        }
    }

    /**
     * Whether {@code e}, or a cause of it, is the node's {@code NOSCRIPT} error: the script must be sent again by
     * source.
     */
    public static boolean isNoScript(Throwable e) {
        for (Throwable t = Failures.unwrap(e); t != null; t = t.getCause()) {
            if (t instanceof RedisErrorException r) return r.isNoScript();
            String m = t.getMessage();
            if (m != null && m.contains("NOSCRIPT")) return true;
            if (t.getCause() == t) break;
        }
        return false;
    }
}
