package dev.redlock.chaos.proxy;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/** The toxic types the server knows, their attributes (all integers, in the order they are rendered) and stages. */
enum ToxicType {
    LATENCY("latency", LatencyStage::new, "latency", "jitter"),
    BANDWIDTH("bandwidth", BandwidthStage::new, "rate"),
    SLOW_CLOSE("slow_close", SlowCloseStage::new, "delay"),
    TIMEOUT("timeout", TimeoutStage::new, "timeout"),
    RESET_PEER("reset_peer", ResetPeerStage::new, "timeout"),
    SLICER("slicer", SlicerStage::new, "average_size", "size_variation", "delay"),
    LIMIT_DATA("limit_data", LimitDataStage::new, "bytes");

    private final String wireName;
    private final Function<Link, Stage> stageFactory;
    private final List<String> attributes;

    ToxicType(String wireName, Function<Link, Stage> stageFactory, String... attributes) {
        this.wireName = wireName;
        this.stageFactory = stageFactory;
        this.attributes = List.of(attributes);
    }

    String wireName() {
        return wireName;
    }

    List<String> attributes() {
        return attributes;
    }

    /** A fresh, unconfigured stage of this type for one link. */
    Stage newStage(Link link) {
        return stageFactory.apply(link);
    }

    /** Looks a type up by its exact wire name, as the real server does. */
    static Optional<ToxicType> parse(String wireName) {
        for (ToxicType t : values()) {
            if (t.wireName.equals(wireName)) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }
}
