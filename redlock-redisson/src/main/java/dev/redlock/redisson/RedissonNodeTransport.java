package dev.redlock.redisson;

import dev.redlock.internal.Failures;
import dev.redlock.spi.NodeTransport;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.redisson.Redisson;
import org.redisson.api.RTopic;
import org.redisson.api.RedissonClient;
import org.redisson.client.RedisTimeoutException;
import org.redisson.client.codec.StringCodec;
import org.redisson.client.protocol.RedisCommand;
import org.redisson.client.protocol.decoder.ObjectListReplayDecoder;
import org.redisson.command.CommandAsyncExecutor;

/**
 * One node over a {@link RedissonClient} the application manages: commands through the client's command executor
 * (its connection pool, its codec replaced by strings), pub/sub through its topics. {@link #close()} leaves the
 * client open. Redisson's own reply timeout becomes a {@link TimeoutException}. Thread-safe.
 */
final class RedissonNodeTransport implements NodeTransport {
    private final RedissonClient client;
    private final CommandAsyncExecutor executor;
    private final Map<Consumer<String>, Integer> listenerIds = new ConcurrentHashMap<>();

    RedissonNodeTransport(RedissonClient client) {
        this.client = client;
        if (!(client instanceof Redisson r)) {
            throw new IllegalArgumentException("clients must be created by Redisson.create(config), got "
                    + client.getClass().getName());
        }
        this.executor = r.getCommandExecutor();
    }

    @Override
    public CompletableFuture<Object> command(String... args) {
        RedisCommand<List<Object>> cmd = new RedisCommand<>(args[0], new ObjectListReplayDecoder<>());
        Object[] params = new Object[args.length - 1];
        System.arraycopy(args, 1, params, 0, params.length);
        CompletableFuture<Object> sent;
        try {
            sent = executor.<List<Object>, Object>writeAsync((String) null, StringCodec.INSTANCE, cmd, params).toCompletableFuture();
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        return sent.handle((reply, e) -> {
            if (e == null) return reply;
            Throwable t = Failures.unwrap(e);
            if (t instanceof RedisTimeoutException) {
                TimeoutException timeout = new TimeoutException(t.getMessage());
                timeout.initCause(t);
                throw new CompletionException(timeout);
            }
            throw e instanceof CompletionException c ? c : new CompletionException(e);
        });
    }

    @Override
    public CompletableFuture<Void> subscribe(String channel, Consumer<String> listener) {
        RTopic topic = client.getTopic(channel, StringCodec.INSTANCE);
        return topic.addListenerAsync(String.class, (ch, msg) -> listener.accept(msg)).toCompletableFuture()
                .thenAccept(id -> listenerIds.put(listener, id));
    }

    @Override
    public void unsubscribe(String channel, Consumer<String> listener) {
        Integer id = listenerIds.remove(listener);
        if (id != null) client.getTopic(channel, StringCodec.INSTANCE).removeListenerAsync(id);
    }

    /** Leaves the client open: the application manages it. */
    @Override
    public void close() {
        // nothing of ours to close
    }

    @Override
    public String toString() {
        return "RedissonNodeTransport[" + client + "]";
    }
}
