package dev.redlock.internal.resp;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * One command on its way: its arguments until written, then its place in the connection's FIFO of pending replies;
 * completes with the reply. A subclass may handle an error reply itself (e.g. send itself again, see
 * {@link #error}); the arguments array is never modified by the transport, so one array may back several commands.
 */
public class RespCommand extends CompletableFuture<Object> {
    /** What is written: {@code String}, {@code byte[]} or {@code Number}. */
    protected Object[] args;

    private Listener listener;   // guarded by this
    private int tag;             // guarded by this

    public RespCommand(Object[] args) {
        this.args = args;
    }

    /** Told once when a command completes: the allocation-free alternative to a dependent future. */
    @FunctionalInterface
    public interface Listener {
        /** {@code error} is null on a reply ({@code reply} may be null: nil). */
        void done(int tag, Object reply, Throwable error);
    }

    /**
     * Calls {@code l.done(tag, ...)} once this command completes (at once if it has); one listener per command. Runs
     * on the thread that completes it (the event loop), or on the caller's when already complete.
     */
    public final void listen(Listener l, int tag) {
        synchronized (this) {
            if (!isDone()) {
                this.listener = l;
                this.tag = tag;
                return;
            }
        }
        tell(l, tag);
    }

    @Override
    public boolean complete(Object value) {
        boolean first = super.complete(value);
        if (first) fire();
        return first;
    }

    @Override
    public boolean completeExceptionally(Throwable ex) {
        boolean first = super.completeExceptionally(ex);
        if (first) fire();
        return first;
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        boolean first = super.cancel(mayInterruptIfRunning);
        if (first) fire();
        return first;
    }

    private void fire() {
        Listener l;
        int t;
        synchronized (this) {
            l = listener;
            t = tag;
            listener = null;
        }
        if (l != null) tell(l, t);
    }

    private void tell(Listener l, int t) {
        Object reply = null;
        Throwable error = null;
        try {
            reply = join();
        } catch (CompletionException | CancellationException e) {
            error = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
        }
        l.done(t, reply, error);
    }

    /**
     * How this command's reply is built when it is a flat array (see {@link FlatArrayReader}); null (the default)
     * for the generic reply. Called on the event loop when the reply starts to arrive.
     */
    protected FlatArrayReader flatArrayReader() {
        return null;
    }

    /** An error reply arrived for this command; by default the command fails with it. Runs on the event loop. */
    protected void error(RedisErrorException e) {
        completeExceptionally(e);
    }
}
