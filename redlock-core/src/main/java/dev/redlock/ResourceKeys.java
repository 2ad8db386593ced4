package dev.redlock;

import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The keys and the wake-up channel of a resource ({@code prefix + resource}, its fence entry, its release channel),
 * made once for the resources recently used: a small direct-mapped cache, so an application that locks the same
 * resources again and again builds no strings per acquire and release. A resource whose slot another one took is
 * built again (three strings). Thread-safe: entries are immutable and replaced whole.
 */
final class ResourceKeys {
    private static final int SLOTS = 64;

    private final String prefix;
    private final String fencePrefix;
    private final String channelPrefix;
    private final AtomicReferenceArray<Keys> slots = new AtomicReferenceArray<>(SLOTS);

    ResourceKeys(String keyPrefix) {
        this.prefix = keyPrefix;
        this.fencePrefix = keyPrefix + "__fence:";
        this.channelPrefix = keyPrefix + "__released:";
    }

    /** One resource's names. */
    record Keys(String resource, String lock, String fence, String channel) {}

    Keys of(String resource) {
        int h = resource.hashCode();
        int i = (h ^ (h >>> 16)) & (SLOTS - 1);
        Keys k = slots.get(i);
        if (k != null && k.resource.equals(resource)) return k;
        k = new Keys(resource, prefix + resource, fencePrefix + resource, channelPrefix + resource);
        slots.set(i, k);
        return k;
    }
}
