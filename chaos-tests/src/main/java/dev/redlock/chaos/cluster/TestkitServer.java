package dev.redlock.chaos.cluster;

import dev.redlock.testkit.RedisNode;
import java.util.List;

/** A {@link ServerProcess} backed by the testkit's {@link RedisNode}. */
final class TestkitServer implements ServerProcess {
    private final RedisNode node;

    TestkitServer(RedisNode node) {
        this.node = node;
    }

    static TestkitServer start(boolean aof) {
        return new TestkitServer(RedisNode.start(aof));
    }

    @Override public int port() { return node.port(); }
    @Override public long pid() { return node.pid(); }
    @Override public boolean isRunning() { return node.isRunning(); }
    @Override public boolean isPaused() { return node.isPaused(); }
    @Override public boolean persistent() { return node.persistent(); }
    @Override public void kill() { node.kill(); }
    @Override public void restart() { node.restart(); }
    @Override public void pause() { node.pause(); }
    @Override public void resume() { node.resume(); }
    @Override public String command(String... args) { return node.command(args); }
    @Override public List<String> keys(String pattern) { return node.keys(pattern); }
    @Override public void close() { node.close(); }

    @Override
    public String toString() {
        return node.toString();
    }
}
