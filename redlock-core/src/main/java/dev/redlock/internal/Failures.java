package dev.redlock.internal;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * Internal, not API: what the library's futures failed with, without the wrappers the future machinery adds, and
 * how a failure is told in one line. Anything here may change or disappear in any release; applications must not
 * use it.
 */
public final class Failures {
    private Failures() {}

    /**
     * {@code e} without its {@link CompletionException} and {@link ExecutionException} wrappers (a wrapper with no
     * cause is kept, it is all there is); null for null.
     */
    public static Throwable unwrap(Throwable e) {
        while ((e instanceof CompletionException || e instanceof ExecutionException) && e.getCause() != null) {
            e = e.getCause();
        }
        return e;
    }

    /**
     * A one-line description of a node failure: its type and message, and its root cause when the message does not
     * already say it; never contains credentials ({@link RedisUri#redactText}).
     */
    public static String describe(Throwable e) {
        Throwable t = unwrap(e);
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) root = root.getCause();
        String text = oneLine(t);
        if (root != t) {
            String rootText = oneLine(root);
            if (!text.contains(root.getMessage() == null ? rootText : root.getMessage())) text += "; cause: " + rootText;
        }
        return RedisUri.redactText(text);
    }

    private static String oneLine(Throwable t) {
        String m = t.getMessage();
        return t.getClass().getSimpleName() + (m == null ? "" : ": " + m);
    }
}
