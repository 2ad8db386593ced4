package dev.redlock.internal.resp;

import java.util.concurrent.CompletableFuture;

/** One command on its way: its arguments until written, then its place in the connection's FIFO of pending replies. */
final class RespCommand extends CompletableFuture<Object> {
    final Object[] args;

    RespCommand(Object[] args) {
        this.args = args;
    }
}
