package dev.redlock.sim;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** A node's pub/sub channels: which connections ({@link Session}s) listen on each. Not thread-safe. */
final class PubSub {
    private final Map<String, List<Session>> channels = new LinkedHashMap<>();

    /** Delivers {@code message} to every subscriber of {@code channel}; returns how many there were. */
    long publish(String channel, String message) {
        List<Session> subs = channels.get(channel);
        if (subs == null) return 0;
        for (Session s : List.copyOf(subs)) s.deliver(channel, message);
        return subs.size();
    }

    void subscribe(Session s, String channel) {
        if (s.channels.add(channel)) channels.computeIfAbsent(channel, c -> new ArrayList<>()).add(s);
    }

    void unsubscribe(Session s, String channel) {
        if (!s.channels.remove(channel)) return;
        List<Session> subs = channels.get(channel);
        if (subs == null) return;
        subs.remove(s);
        if (subs.isEmpty()) channels.remove(channel);
    }

    long subscribers(String channel) {
        List<Session> subs = channels.get(channel);
        return subs == null ? 0 : subs.size();
    }

    Set<String> names() {
        return channels.keySet();
    }

    /** The process died: every connection, and with it every subscription, is gone. */
    void clear() {
        for (List<Session> subs : channels.values()) for (Session s : subs) s.channels.clear();
        channels.clear();
    }
}
