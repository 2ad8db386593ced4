package dev.redlock.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.luaj.vm2.LuaString;

/** {@code CONFIG GET | SET | RESETSTAT} over the handful of settings the model has. */
final class ConfigCommand {
    private ConfigCommand() {}

    static Object run(SimNode n, LuaString[] a, Session s) {
        String sub = LuaBridge.utf8(a[1]).toLowerCase(Locale.ROOT);
        switch (sub) {
            case "get" -> {
                if (a.length < 3 || (a.length > 3 && !n.v7())) return ServerCommands.subcommandArity(n, "config", a[1]);
                List<Object> out = new ArrayList<>();
                Map<String, String> c = ServerCommands.config(n);
                for (int i = 2; i < a.length; i++) {
                    for (Map.Entry<String, String> e : c.entrySet()) {
                        LuaString name = LuaString.valueOf(e.getKey());
                        if (Glob.matches(LuaString.valueOf(LuaBridge.utf8(a[i]).toLowerCase(Locale.ROOT)), name) && !out.contains(name)) {
                            out.add(name);
                            out.add(LuaString.valueOf(e.getValue()));
                        }
                    }
                }
                return out;
            }
            case "set" -> {
                if (a.length < 4 || (a.length > 4 && !n.v7())) return ServerCommands.subcommandArity(n, "config", a[1]);
                if (a.length % 2 != 0) return new ErrorReply("ERR wrong number of arguments for 'config|set' command");
                for (int i = 2; i < a.length; i += 2) {
                    ErrorReply e = set(n, LuaBridge.utf8(a[i]).toLowerCase(Locale.ROOT), LuaBridge.utf8(a[i + 1]));
                    if (e != null) return e;
                }
                return StatusReply.OK;
            }
            case "resetstat" -> {
                return StatusReply.OK;
            }
            default -> {
                return ServerCommands.unknownSubcommand(n, "config", a[1]);
            }
        }
    }

    private static ErrorReply set(SimNode n, String name, String value) {
        switch (name) {
            case "maxmemory" -> {
                Long bytes = memory(value);
                if (bytes == null) return invalid(n, name, value, "argument couldn't be parsed into an integer");
                n.maxmemoryConfig(bytes, n.maxmemoryPolicy());
            }
            case "maxmemory-policy" -> {
                String p = value.toLowerCase(Locale.ROOT);
                if (!ServerCommands.POLICIES.contains(p)) {
                    return invalid(n, name, value, "argument(s) must be one of the following: " + String.join(", ", ServerCommands.POLICIES));
                }
                n.maxmemoryConfig(n.maxmemory(), p);
            }
            case "appendonly" -> {
                Boolean on = yesNo(value);
                if (on == null) return invalid(n, name, value, "argument must be 'yes' or 'no'");
                if (on != n.persistence().aof()) n.persistence(on ? Persistence.AOF_EVERYSEC : Persistence.NONE);
            }
            case "appendfsync" -> {
                String v = value.toLowerCase(Locale.ROOT);
                if (!v.equals("always") && !v.equals("everysec") && !v.equals("no")) {
                    return invalid(n, name, value, "argument(s) must be one of the following: always, everysec, no");
                }
                if (n.persistence().aof()) n.persistence(v.equals("always") ? Persistence.AOF_ALWAYS : Persistence.AOF_EVERYSEC);
            }
            case "save" -> n.save(value);
            case "replica-read-only", "slave-read-only" -> {
                Boolean on = yesNo(value);
                if (on == null) return invalid(n, name, value, "argument must be 'yes' or 'no'");
                n.replicaReadOnly(on);
            }
            case "requirepass" -> n.requirePass(value);
            default -> {
                return new ErrorReply(n.v7() ? "ERR Unknown option or number of arguments for CONFIG SET - '" + name + "'"
                        : "ERR Unsupported CONFIG parameter: " + name);
            }
        }
        return null;
    }

    private static ErrorReply invalid(SimNode n, String name, String value, String why7) {
        return new ErrorReply(n.v7() ? "ERR CONFIG SET failed (possibly related to argument '" + name + "') - " + why7
                : "ERR Invalid argument '" + value + "' for CONFIG SET '" + name + "'");
    }

    private static Boolean yesNo(String v) {
        return v.equalsIgnoreCase("yes") ? Boolean.TRUE : v.equalsIgnoreCase("no") ? Boolean.FALSE : null;
    }

    /** Redis's memtoll: a number with an optional unit (b, k, kb, m, mb, g, gb; case-insensitive). */
    static Long memory(String v) {
        String s = v.toLowerCase(Locale.ROOT);
        long mul = 1;
        String[][] units = {{"kb", "1024"}, {"mb", "1048576"}, {"gb", "1073741824"}, {"k", "1000"}, {"m", "1000000"},
            {"g", "1000000000"}, {"b", "1"}};
        for (String[] u : units) {
            if (s.endsWith(u[0])) {
                mul = Long.parseLong(u[1]);
                s = s.substring(0, s.length() - u[0].length());
                break;
            }
        }
        Long num = Args.parseLong(LuaString.valueOf(s));
        if (num == null || num < 0 || num > Long.MAX_VALUE / mul) return null;
        return num * mul;
    }
}
