package dev.redlock.chaos.proxy;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * One direction of one connection: reads from {@code source}, runs the chunks through the stages of that
 * direction's toxics, in order, and writes them to {@code target}. Confined to the connection's event loop.
 *
 * <p>Back-pressure: bytes read but not yet written (or dropped) are counted; reading from the source pauses above
 * {@value #PAUSE_AT} bytes and resumes below {@value #RESUME_AT}, so a stalled toxic or a slow reader holds the
 * sender back through TCP instead of filling memory.
 */
final class Link {

    static final int PAUSE_AT = 256 * 1024;
    static final int RESUME_AT = 64 * 1024;

    private final ProxyConnection connection;
    private final Direction direction;
    private final Channel source;
    private final OutputStage output;
    private List<Stage> stages = new ArrayList<>();
    private long inFlight;
    private boolean sourceEnded;

    Link(ProxyConnection connection, Direction direction, Channel source, Channel target) {
        this.connection = connection;
        this.direction = direction;
        this.source = source;
        this.output = new OutputStage(this, target);
    }

    Direction direction() {
        return direction;
    }

    ProxyConnection connection() {
        return connection;
    }

    EventLoop loop() {
        return connection.loop();
    }

    long now() {
        return System.nanoTime();
    }

    ThreadLocalRandom random() {
        return ThreadLocalRandom.current();
    }

    boolean closed() {
        return connection.closed();
    }

    void read(ByteBuf data) {
        inFlight += data.readableBytes();
        if (inFlight >= PAUSE_AT) {
            source.config().setAutoRead(false);
        }
        head().onData(new Chunk(data, now()));
    }

    void sourceEnded() {
        if (!sourceEnded) {
            sourceEnded = true;
            head().onEof();
        }
    }

    /** A stage dropped a chunk. */
    void discard(Chunk chunk) {
        int size = chunk.size();
        chunk.data.release();
        released(size);
    }

    /** A stage cut {@code length} bytes off the end of a chunk. */
    void discardTail(Chunk chunk, int length) {
        chunk.data.writerIndex(chunk.data.writerIndex() - length);
        released(length);
    }

    /** The target socket took {@code size} bytes (or failed to). */
    void written(int size) {
        released(size);
    }

    private void released(int size) {
        inFlight -= size;
        if (inFlight <= RESUME_AT && !source.config().isAutoRead() && !closed() && !sourceEnded) {
            source.config().setAutoRead(true);
        }
    }

    /**
     * Brings the stages in line with this direction's toxics: removed toxics hand on what they hold and leave,
     * changed ones are reconfigured (toxicity rolled again), new ones are appended.
     */
    void apply(List<ToxicSpec> toxics) {
        Map<Long, ToxicSpec> wanted = new HashMap<>();
        toxics.forEach(t -> wanted.put(t.id(), t));

        List<Stage> kept = new ArrayList<>();
        for (Stage stage : stages) {
            if (wanted.containsKey(stage.spec.id())) {
                kept.add(stage);
            } else {
                stage.removed(); // its successor is still linked, so held data flows on
                stage.dispose();
            }
        }
        relink(kept);

        Map<Long, Stage> byId = new HashMap<>();
        for (Stage stage : kept) {
            ToxicSpec spec = wanted.get(stage.spec.id());
            if (spec != stage.spec) {
                stage.configure(spec);
            }
            byId.put(spec.id(), stage);
        }

        List<Stage> chain = new ArrayList<>();
        Map<Stage, ToxicSpec> added = new LinkedHashMap<>();
        for (ToxicSpec spec : toxics) {
            Stage stage = byId.get(spec.id());
            if (stage == null) {
                stage = spec.type().newStage(this);
                added.put(stage, spec);
            }
            chain.add(stage);
        }
        relink(chain);
        added.forEach(Stage::configure);
    }

    /** The connection is gone: release everything held and stop timers. */
    void dispose() {
        stages.forEach(Stage::dispose);
        output.dispose();
    }

    private void relink(List<Stage> chain) {
        for (int i = 0; i < chain.size(); i++) {
            chain.get(i).next = i + 1 < chain.size() ? chain.get(i + 1) : output;
        }
        stages = chain;
    }

    private Stage head() {
        return stages.isEmpty() ? output : stages.get(0);
    }
}
