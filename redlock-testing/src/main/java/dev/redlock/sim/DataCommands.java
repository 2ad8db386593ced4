package dev.redlock.sim;

import static dev.redlock.sim.Command.DENYOOM;
import static dev.redlock.sim.Command.WRITE;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.luaj.vm2.LuaString;

/**
 * The keyspace commands of the model (strings, hashes, expiry, key listing), with Redis's replies and error texts
 * for the cases the library and its scripts can meet. Each returns a reply object ({@code Long}, {@link LuaString},
 * {@link StatusReply}, {@link ErrorReply}, {@code List}, or null for nil).
 */
final class DataCommands {
    private DataCommands() {}

    static void register() {
        Command.add("get", 2, 0, (n, a, s) -> {
            Entry e = n.data().lookup(a[1]);
            if (e == null) return null;
            return e.isString() ? e.string() : ErrorReply.WRONGTYPE;
        });
        Command.add("set", -3, WRITE | DENYOOM, DataCommands::set);
        Command.add("del", -2, WRITE, DataCommands::del);
        Command.add("unlink", -2, WRITE, DataCommands::del);
        Command.add("exists", -2, 0, (n, a, s) -> {
            long c = 0;
            for (int i = 1; i < a.length; i++) if (n.data().lookup(a[i]) != null) c++;
            return c;
        });
        Command.add("type", 2, 0, (n, a, s) -> {
            Entry e = n.data().lookup(a[1]);
            return new StatusReply(e == null ? "none" : e.typeName());
        });
        Command.add("pexpire", -3, WRITE, (n, a, s) -> expire(n, a, 1));
        Command.add("expire", -3, WRITE, (n, a, s) -> expire(n, a, 1000));
        Command.add("pttl", 2, 0, (n, a, s) -> ttl(n, a[1], true));
        Command.add("ttl", 2, 0, (n, a, s) -> ttl(n, a[1], false));
        Command.add("incr", 2, WRITE | DENYOOM, (n, a, s) -> incrBy(n, a[1], 1));
        Command.add("decr", 2, WRITE | DENYOOM, (n, a, s) -> incrBy(n, a[1], -1));
        Command.add("incrby", 3, WRITE | DENYOOM, (n, a, s) -> {
            Long by = Args.parseLong(a[2]);
            return by == null ? ErrorReply.NOT_INTEGER : incrBy(n, a[1], by);
        });
        Command.add("hget", 3, 0, (n, a, s) -> {
            Entry e = n.data().lookup(a[1]);
            if (e == null) return null;
            return e.isString() ? ErrorReply.WRONGTYPE : e.hash().get(a[2]);
        });
        Command.add("hmget", -3, 0, (n, a, s) -> {
            Entry e = n.data().lookup(a[1]);
            if (e != null && e.isString()) return ErrorReply.WRONGTYPE;
            List<Object> out = new ArrayList<>(a.length - 2);
            for (int i = 2; i < a.length; i++) out.add(e == null ? null : e.hash().get(a[i]));
            return out;
        });
        Command.add("hgetall", 2, 0, (n, a, s) -> {
            Entry e = n.data().lookup(a[1]);
            if (e == null) return List.of();
            if (e.isString()) return ErrorReply.WRONGTYPE;
            List<Object> out = new ArrayList<>(e.hash().size() * 2);
            for (Map.Entry<LuaString, LuaString> f : e.hash().entrySet()) {
                out.add(f.getKey());
                out.add(f.getValue());
            }
            return out;
        });
        Command.add("hexists", 3, 0, (n, a, s) -> {
            Entry e = n.data().lookup(a[1]);
            if (e == null) return 0L;
            return e.isString() ? ErrorReply.WRONGTYPE : (e.hash().containsKey(a[2]) ? 1L : 0L);
        });
        Command.add("hlen", 2, 0, (n, a, s) -> {
            Entry e = n.data().lookup(a[1]);
            if (e == null) return 0L;
            return e.isString() ? ErrorReply.WRONGTYPE : (long) e.hash().size();
        });
        Command.add("hset", -4, WRITE | DENYOOM, DataCommands::hset);
        Command.add("hdel", -3, WRITE, DataCommands::hdel);
        Command.add("hincrby", 4, WRITE | DENYOOM, DataCommands::hincrby);
        Command.add("dbsize", 1, 0, (n, a, s) -> (long) n.data().liveKeys().size());
        Command.add("keys", 2, 0, (n, a, s) -> {
            List<Object> out = new ArrayList<>();
            for (LuaString k : n.data().liveKeys()) if (Glob.matches(a[1], k)) out.add(k);
            return out;
        });
        Command.add("scan", -2, 0, DataCommands::scan);
    }

    private static Object set(SimNode n, LuaString[] a, Session s) {
        boolean nx = false, xx = false, get = false, keepTtl = false;
        String unit = null;
        LuaString expireArg = null;
        for (int j = 3; j < a.length; j++) {
            String opt = LuaBridge.utf8(a[j]).toUpperCase();
            boolean hasNext = j + 1 < a.length;
            switch (opt) {
                case "NX" -> {
                    if (xx || (get && !n.v7())) return ErrorReply.SYNTAX;
                    nx = true;
                }
                case "XX" -> {
                    if (nx) return ErrorReply.SYNTAX;
                    xx = true;
                }
                case "GET" -> {
                    if (nx && !n.v7()) return ErrorReply.SYNTAX;
                    get = true;
                }
                case "KEEPTTL" -> {
                    if (unit != null) return ErrorReply.SYNTAX;
                    keepTtl = true;
                }
                case "EX", "PX", "EXAT", "PXAT" -> {
                    if (keepTtl || unit != null || !hasNext) return ErrorReply.SYNTAX;
                    unit = opt;
                    expireArg = a[++j];
                }
                default -> {
                    return ErrorReply.SYNTAX;
                }
            }
        }
        long expireAt = -1;
        if (unit != null) {
            Long v = Args.parseLong(expireArg);
            if (v == null) return ErrorReply.NOT_INTEGER;
            boolean seconds = unit.startsWith("EX");
            ErrorReply invalid = new ErrorReply(n.v7() ? "ERR invalid expire time in 'set' command" : "ERR invalid expire time in set");
            if (v <= 0 || (seconds && v > Long.MAX_VALUE / 1000)) return invalid;
            long ms = seconds ? v * 1000 : v;
            if (!unit.endsWith("AT")) {
                long now = n.clock().millis();
                if (ms > Long.MAX_VALUE - now) return invalid;
                ms += now;
            }
            expireAt = ms;
        }
        Entry old = n.data().lookup(a[1]);
        if (get && old != null && !old.isString()) return ErrorReply.WRONGTYPE;
        Object previous = get ? (old == null ? null : old.string()) : null;
        if ((nx && old != null) || (xx && old == null)) return get ? previous : null;
        if (keepTtl && old != null) expireAt = old.expireAtMs;
        n.data().put(a[1], Entry.string(a[2], expireAt));
        return get ? previous : StatusReply.OK;
    }

    private static Object del(SimNode n, LuaString[] a, Session s) {
        long c = 0;
        for (int i = 1; i < a.length; i++) if (n.data().delete(a[i])) c++;
        return c;
    }

    private static Object expire(SimNode n, LuaString[] a, long unitMs) {
        String name = unitMs == 1 ? "pexpire" : "expire";
        boolean nx = false, xx = false, gt = false, lt = false;
        if (a.length > 3) {
            if (!n.v7()) return Args.wrongArity(name);
            for (int j = 3; j < a.length; j++) {
                String o = LuaBridge.utf8(a[j]).toUpperCase();
                switch (o) {
                    case "NX" -> nx = true;
                    case "XX" -> xx = true;
                    case "GT" -> gt = true;
                    case "LT" -> lt = true;
                    default -> {
                        return new ErrorReply("ERR Unsupported option " + LuaBridge.utf8(a[j]));
                    }
                }
            }
            if (nx && (xx || gt || lt)) return new ErrorReply("ERR NX and XX, GT or LT options at the same time are not compatible");
            if (gt && lt) return new ErrorReply("ERR GT and LT options at the same time are not compatible");
        }
        Long when = Args.parseLong(a[2]);
        if (when == null) return ErrorReply.NOT_INTEGER;
        ErrorReply invalid = new ErrorReply(n.v7() ? "ERR invalid expire time in '" + name + "' command" : "ERR invalid expire time in " + name);
        if (unitMs > 1 && (when > Long.MAX_VALUE / unitMs || when < Long.MIN_VALUE / unitMs)) return invalid;
        long ms = when * unitMs;
        long now = n.clock().millis();
        if ((ms > 0 && now > Long.MAX_VALUE - ms) || (ms < 0 && now < Long.MIN_VALUE - ms)) return invalid;
        long at = ms + now;
        Entry e = n.data().lookup(a[1]);
        if (e == null) return 0L;
        long current = e.expireAtMs;
        if (nx && current >= 0) return 0L;
        if (xx && current < 0) return 0L;
        if (gt && (current < 0 || at <= current)) return 0L;
        if (lt && current >= 0 && at >= current) return 0L;
        if (at <= now) {
            n.data().delete(a[1]);
            return 1L;
        }
        e.expireAtMs = at;
        n.data().changed(a[1], e);
        return 1L;
    }

    private static Object ttl(SimNode n, LuaString key, boolean ms) {
        Entry e = n.data().lookup(key);
        if (e == null) return -2L;
        if (e.expireAtMs < 0) return -1L;
        long left = Math.max(0, e.expireAtMs - n.clock().millis());
        return ms ? left : (left + 500) / 1000;
    }

    private static Object incrBy(SimNode n, LuaString key, long by) {
        Entry e = n.data().lookup(key);
        long value = 0;
        if (e != null) {
            if (!e.isString()) return ErrorReply.WRONGTYPE;
            Long v = Args.parseLong(e.string());
            if (v == null) return ErrorReply.NOT_INTEGER;
            value = v;
        }
        if ((by > 0 && value > Long.MAX_VALUE - by) || (by < 0 && value < Long.MIN_VALUE - by)) return ErrorReply.OVERFLOW;
        long result = value + by;
        LuaString text = LuaString.valueOf(Long.toString(result));
        if (e == null) {
            n.data().put(key, Entry.string(text, -1));
        } else {
            e.value = text;
            n.data().changed(key, e);
        }
        return result;
    }

    private static Object hset(SimNode n, LuaString[] a, Session s) {
        if (a.length % 2 != 0) return Args.wrongArity("hset");
        Entry e = n.data().lookup(a[1]);
        if (e != null && e.isString()) return ErrorReply.WRONGTYPE;
        boolean created = e == null;
        if (created) e = Entry.newHash();
        LinkedHashMap<LuaString, LuaString> h = e.hash();
        long added = 0;
        for (int i = 2; i < a.length; i += 2) if (h.put(a[i], a[i + 1]) == null) added++;
        if (created) n.data().put(a[1], e);
        else n.data().changed(a[1], e);
        return added;
    }

    private static Object hdel(SimNode n, LuaString[] a, Session s) {
        Entry e = n.data().lookup(a[1]);
        if (e == null) return 0L;
        if (e.isString()) return ErrorReply.WRONGTYPE;
        long removed = 0;
        for (int i = 2; i < a.length; i++) if (e.hash().remove(a[i]) != null) removed++;
        if (removed > 0) {
            if (e.hash().isEmpty()) n.data().delete(a[1]);
            else n.data().changed(a[1], e);
        }
        return removed;
    }

    private static Object hincrby(SimNode n, LuaString[] a, Session s) {
        Long by = Args.parseLong(a[3]);
        if (by == null) return ErrorReply.NOT_INTEGER;
        Entry e = n.data().lookup(a[1]);
        if (e != null && e.isString()) return ErrorReply.WRONGTYPE;
        long value = 0;
        LuaString cur = e == null ? null : e.hash().get(a[2]);
        if (cur != null) {
            Long v = Args.parseLong(cur);
            if (v == null) return new ErrorReply("ERR hash value is not an integer");
            value = v;
        }
        if ((by > 0 && value > Long.MAX_VALUE - by) || (by < 0 && value < Long.MIN_VALUE - by)) return ErrorReply.OVERFLOW;
        long result = value + by;
        boolean created = e == null;
        if (created) e = Entry.newHash();
        e.hash().put(a[2], LuaString.valueOf(Long.toString(result)));
        if (created) n.data().put(a[1], e);
        else n.data().changed(a[1], e);
        return result;
    }

    /** The whole keyspace in one page (cursor 0 back): fine for the model's small data sets. */
    private static Object scan(SimNode n, LuaString[] a, Session s) {
        if (Args.parseLong(a[1]) == null) return new ErrorReply("ERR invalid cursor");
        LuaString match = null;
        String type = null;
        for (int j = 2; j < a.length; j += 2) {
            if (j + 1 >= a.length) return ErrorReply.SYNTAX;
            String o = LuaBridge.utf8(a[j]).toUpperCase();
            switch (o) {
                case "MATCH" -> match = a[j + 1];
                case "COUNT" -> {
                    Long c = Args.parseLong(a[j + 1]);
                    if (c == null) return ErrorReply.NOT_INTEGER;
                    if (c < 1) return ErrorReply.SYNTAX;
                }
                case "TYPE" -> type = LuaBridge.utf8(a[j + 1]);
                default -> {
                    return ErrorReply.SYNTAX;
                }
            }
        }
        List<Object> keys = new ArrayList<>();
        for (LuaString k : n.data().liveKeys()) {
            if (match != null && !Glob.matches(match, k)) continue;
            if (type != null && !n.data().keyspace().get(k).typeName().equalsIgnoreCase(type)) continue;
            keys.add(k);
        }
        return List.of(LuaString.valueOf("0"), keys);
    }
}
