package dev.redlock;

import dev.redlock.internal.Resources;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The resources of one {@link MultiLease} and their keys on the nodes, the same keys a {@link Lease} on each uses
 * (lock key {@code prefix + resource}, fence entry {@code prefix + "__fence:" + resource}, wake-up channel
 * {@code prefix + "__released:" + resource}), laid out for the {@code _ALL} scripts of {@link LuaScript}. Built and
 * checked once per acquisition, shared by its rounds and its lease. Immutable.
 */
final class ResourceSet {
    /** The most resources one {@link Redlock#acquireAll} takes. */
    static final int MAX_RESOURCES = 64;

    private final List<String> resources;
    private final Map<String, Integer> index;
    private final String label;
    private final List<Object> lockAndFenceKeys;   // marker, then per resource its lock key and fence entry
    private final List<Object> markerAndLockKeys;  // marker, then every lock key
    private final List<Object> lockKeys;
    private final List<String> channels;

    private ResourceSet(RedlockContext ctx, List<String> resources, Map<String, Integer> index) {
        this.resources = Collections.unmodifiableList(resources);
        this.index = index;
        this.label = resources.toString();
        List<Object> both = new ArrayList<>(1 + 2 * resources.size());
        List<Object> marked = new ArrayList<>(1 + resources.size());
        List<Object> locks = new ArrayList<>(resources.size());
        List<String> wakeUps = new ArrayList<>(resources.size());
        both.add(ctx.markerKey());
        marked.add(ctx.markerKey());
        for (String r : resources) {
            ResourceKeys.Keys k = ctx.keys(r);
            both.add(k.lock());
            both.add(k.fence());
            marked.add(k.lock());
            locks.add(k.lock());
            wakeUps.add(k.channel());
        }
        this.lockAndFenceKeys = List.copyOf(both);
        this.markerAndLockKeys = List.copyOf(marked);
        this.lockKeys = List.copyOf(locks);
        this.channels = List.copyOf(wakeUps);
    }

    /**
     * Checks {@code resources} as {@link Redlock#acquireAll} takes them: not null, 1 to {@link #MAX_RESOURCES}
     * names, each a valid resource name ({@link Resources#check}), no name twice.
     *
     * @throws IllegalArgumentException naming what is wrong (the duplicate, the bad name, the count)
     */
    static ResourceSet of(RedlockContext ctx, Collection<String> resources) {
        if (resources == null) throw new IllegalArgumentException("resources must not be null");
        if (resources.isEmpty() || resources.size() > MAX_RESOURCES) {
            throw new IllegalArgumentException("resources must hold 1.." + MAX_RESOURCES + " names, got " + resources.size());
        }
        List<String> names = new ArrayList<>(resources.size());
        Map<String, Integer> index = new HashMap<>();
        for (String r : resources) {
            Resources.check(r);
            if (index.putIfAbsent(r, names.size()) != null) {
                throw new IllegalArgumentException("resources must be distinct, got '" + r + "' twice");
            }
            names.add(r);
        }
        return new ResourceSet(ctx, names, index);
    }

    int size() {
        return resources.size();
    }

    String get(int i) {
        return resources.get(i);
    }

    /** The resources in the order they were given (unmodifiable). */
    List<String> resources() {
        return resources;
    }

    /** The position of {@code resource}, or -1 when it is not one of these. */
    int indexOf(String resource) {
        Integer i = resource == null ? null : index.get(resource);
        return i == null ? -1 : i;
    }

    /** {@code [a, b]}: how listeners, logs and exceptions name a lease on these resources. */
    String label() {
        return label;
    }

    /** ACQUIRE_ALL's and WRITE_FENCE_ALL's keys: the marker, then per resource its lock key and its fence entry. */
    List<Object> lockAndFenceKeys() {
        return lockAndFenceKeys;
    }

    /** EXTEND_ALL with {@code owner} and the new TTL on every node. */
    Object[] extendCommand(RedlockContext ctx, String owner, Duration newTtl) {
        return NodeClient.scriptCommand(LuaScript.EXTEND_ALL, markerAndLockKeys, owner, Long.toString(newTtl.toMillis()),
                ctx.membership().field(), Long.toString(Membership.windowMs(newTtl.toMillis(), ctx.knownQuarantineMs())));
    }

    /**
     * RELEASE_ALL of {@code owner} on {@code targets}: deletes each lock key that still holds it; {@code wakeWaiters}
     * publishes on every resource's channel, as a single release does on its own.
     */
    QuorumCall release(RedlockContext ctx, String owner, int[] targets, boolean wakeWaiters) {
        Object[] args = new Object[2 + channels.size()];
        args[0] = owner;
        args[1] = wakeWaiters ? "1" : "0";
        for (int i = 0; i < channels.size(); i++) args[2 + i] = channels.get(i);
        return ctx.releaseCall(LuaScript.RELEASE_ALL, NodeClient.scriptCommand(LuaScript.RELEASE_ALL, lockKeys, args),
                targets);
    }
}
