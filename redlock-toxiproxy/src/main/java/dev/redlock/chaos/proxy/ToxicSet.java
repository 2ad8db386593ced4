package dev.redlock.chaos.proxy;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * An immutable snapshot of one proxy's toxics: per direction, in insertion order. Names are unique across both
 * directions. Connections read the current snapshot whenever they are told it changed, so a burst of changes
 * collapses into one re-application.
 */
final class ToxicSet {

    static final ToxicSet EMPTY = new ToxicSet(List.of(), List.of());

    private final List<ToxicSpec> upstream;
    private final List<ToxicSpec> downstream;

    private ToxicSet(List<ToxicSpec> upstream, List<ToxicSpec> downstream) {
        this.upstream = List.copyOf(upstream);
        this.downstream = List.copyOf(downstream);
    }

    List<ToxicSpec> of(Direction direction) {
        return direction == Direction.UPSTREAM ? upstream : downstream;
    }

    /** Upstream toxics first, then downstream, each in insertion order (the API's listing order). */
    List<ToxicSpec> all() {
        List<ToxicSpec> all = new ArrayList<>(upstream);
        all.addAll(downstream);
        return all;
    }

    Optional<ToxicSpec> find(String name) {
        return all().stream().filter(t -> t.name().equals(name)).findFirst();
    }

    /** Appends a toxic at the end of its direction's chain. */
    ToxicSet plus(ToxicSpec toxic) {
        List<ToxicSpec> list = new ArrayList<>(of(toxic.stream()));
        list.add(toxic);
        return with(toxic.stream(), list);
    }

    /** Replaces the toxic of the same name in place. */
    ToxicSet replacing(ToxicSpec toxic) {
        List<ToxicSpec> list = new ArrayList<>(of(toxic.stream()));
        list.replaceAll(t -> t.name().equals(toxic.name()) ? toxic : t);
        return with(toxic.stream(), list);
    }

    ToxicSet minus(String name) {
        List<ToxicSpec> up = new ArrayList<>(upstream);
        List<ToxicSpec> down = new ArrayList<>(downstream);
        up.removeIf(t -> t.name().equals(name));
        down.removeIf(t -> t.name().equals(name));
        return new ToxicSet(up, down);
    }

    private ToxicSet with(Direction direction, List<ToxicSpec> list) {
        return direction == Direction.UPSTREAM ? new ToxicSet(list, downstream) : new ToxicSet(upstream, list);
    }
}
