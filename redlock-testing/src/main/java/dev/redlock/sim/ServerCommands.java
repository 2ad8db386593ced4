package dev.redlock.sim;

import static dev.redlock.sim.Command.NOSCRIPT;
import static dev.redlock.sim.Command.WRITE;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.luaj.vm2.LuaString;

/** The server commands of the model: scripting, INFO, CONFIG, pub/sub, persistence, replication, connection. */
final class ServerCommands {
    static final List<String> POLICIES = List.of("volatile-lru", "volatile-lfu", "volatile-random", "volatile-ttl",
            "allkeys-lru", "allkeys-lfu", "allkeys-random", "noeviction");

    private ServerCommands() {}

    static void register() {
        Command.add("eval", -3, NOSCRIPT, (n, a, s) -> eval(n, a, false));
        Command.add("evalsha", -3, NOSCRIPT, (n, a, s) -> eval(n, a, true));
        Command.add("script", -2, NOSCRIPT, ServerCommands::script);
        Command.add("info", -1, 0, (n, a, s) -> {
            if (a.length > 2 && !n.v7()) return ErrorReply.SYNTAX;
            List<String> sections = new ArrayList<>();
            for (int i = 1; i < a.length; i++) sections.add(LuaBridge.utf8(a[i]).toLowerCase(Locale.ROOT));
            return Replies.bytes(InfoText.render(n, sections));
        });
        Command.add("config", -2, 0, ConfigCommand::run);
        Command.add("time", 1, 0, (n, a, s) -> {
            long us = n.clock().micros();
            return List.of(LuaString.valueOf(Long.toString(Math.floorDiv(us, 1_000_000L))),
                    LuaString.valueOf(Long.toString(Math.floorMod(us, 1_000_000L))));
        });
        Command.add("ping", -1, 0, (n, a, s) -> {
            if (a.length > 2) return Args.wrongArity("ping");
            return a.length == 2 ? a[1] : StatusReply.PONG;
        });
        Command.add("echo", 2, 0, (n, a, s) -> a[1]);
        Command.add("select", 2, 0, (n, a, s) -> {
            Long db = Args.parseLong(a[1]);
            if (db == null) return ErrorReply.NOT_INTEGER;
            if (db < 0 || db > 15) return new ErrorReply("ERR DB index is out of range");
            return db == 0 ? StatusReply.OK : new ErrorReply("ERR the simulated node has database 0 only");
        });
        Command.add("auth", -2, NOSCRIPT, ServerCommands::auth);
        Command.add("flushall", -1, WRITE, (n, a, s) -> flush(n, a));
        Command.add("flushdb", -1, WRITE, (n, a, s) -> flush(n, a));
        Command.add("save", 1, NOSCRIPT, (n, a, s) -> {
            n.snapshot();
            return StatusReply.OK;
        });
        Command.add("bgsave", -1, NOSCRIPT, (n, a, s) -> {
            n.snapshot();
            return new StatusReply("Background saving started");
        });
        Command.add("lastsave", 1, 0, (n, a, s) -> n.disk().lastSaveMs() / 1000);
        Command.add("replicaof", 3, NOSCRIPT, ServerCommands::replicaof);
        Command.add("slaveof", 3, NOSCRIPT, ServerCommands::replicaof);
        Command.add("role", 1, NOSCRIPT, ServerCommands::role);
        Command.add("publish", 3, 0, (n, a, s) -> n.channels().publish(LuaBridge.utf8(a[1]), LuaBridge.utf8(a[2])));
        Command.add("pubsub", -2, 0, ServerCommands::pubsub);
        Command.add("subscribe", -2, NOSCRIPT, (n, a, s) -> {
            List<Object> out = new ArrayList<>();
            for (int i = 1; i < a.length; i++) {
                n.channels().subscribe(s, LuaBridge.utf8(a[i]));
                out.add(List.of(LuaString.valueOf("subscribe"), a[i], (long) s.channels.size()));
            }
            return out;
        });
        Command.add("unsubscribe", -1, NOSCRIPT, (n, a, s) -> {
            List<String> which = new ArrayList<>();
            if (a.length == 1) which.addAll(s.channels);
            for (int i = 1; i < a.length; i++) which.add(LuaBridge.utf8(a[i]));
            List<Object> out = new ArrayList<>();
            for (String c : which) {
                n.channels().unsubscribe(s, c);
                out.add(List.of(LuaString.valueOf("unsubscribe"), LuaString.valueOf(c), (long) s.channels.size()));
            }
            return out;
        });
    }

    private static Object eval(SimNode n, LuaString[] a, boolean bySha) {
        Long numkeys = Args.parseLong(a[2]);
        if (numkeys == null) return ErrorReply.NOT_INTEGER;
        if (numkeys < 0) return new ErrorReply("ERR Number of keys can't be negative");
        if (numkeys > a.length - 3) return new ErrorReply("ERR Number of keys can't be greater than number of args");
        ScriptCache.Compiled script;
        if (bySha) {
            script = n.scripts().get(a[1]);
            if (script == null) script = n.scripts().get(ScriptCache.key(a[1]));
            if (script == null) return n.valkeyVersion() != null ? ErrorReply.NOSCRIPT_VALKEY : ErrorReply.NOSCRIPT;
        } else {
            script = ScriptCache.of(a[1]);
            if (script.error() != null) return script.error();
            n.scripts().put(script.shaKey(), script);
        }
        int k = (int) (long) numkeys;
        LuaString[] keys = new LuaString[k];
        System.arraycopy(a, 3, keys, 0, k);
        LuaString[] argv = new LuaString[a.length - 3 - k];
        System.arraycopy(a, 3 + k, argv, 0, argv.length);
        return n.runScript(script, keys, argv);
    }

    private static Object script(SimNode n, LuaString[] a, Session s) {
        String sub = LuaBridge.utf8(a[1]).toLowerCase(Locale.ROOT);
        switch (sub) {
            case "load" -> {
                if (a.length != 3) return subcommandArity(n, "script", a[1]);
                ScriptCache.Compiled script = ScriptCache.of(a[2]);
                if (script.error() != null) return script.error();
                n.scripts().put(script.shaKey(), script);
                return script.shaKey();
            }
            case "exists" -> {
                if (a.length < 3 && n.v7()) return subcommandArity(n, "script", a[1]);
                List<Object> out = new ArrayList<>();
                for (int i = 2; i < a.length; i++) out.add(n.scripts().containsKey(ScriptCache.key(a[i])) ? 1L : 0L);
                return out;
            }
            case "flush" -> {
                n.scripts().clear();
                return StatusReply.OK;
            }
            default -> {
                return unknownSubcommand(n, "script", a[1]);
            }
        }
    }

    /** A subcommand the command does not have ({@code sub} as the client typed it). */
    static ErrorReply unknownSubcommand(SimNode n, String command, LuaString sub) {
        String upper = command.toUpperCase(Locale.ROOT);
        String typed = LuaBridge.utf8(sub);
        return new ErrorReply(n.v7() ? "ERR unknown subcommand '" + typed + "'. Try " + upper + " HELP."
                : "ERR Unknown subcommand or wrong number of arguments for '" + typed + "'. Try " + upper + " HELP.");
    }

    /** A known subcommand with the wrong number of arguments (7.x checks it before the subcommand runs). */
    static ErrorReply subcommandArity(SimNode n, String command, LuaString sub) {
        if (!n.v7()) return unknownSubcommand(n, command, sub);
        return Args.wrongArity(command + "|" + LuaBridge.utf8(sub).toLowerCase(Locale.ROOT));
    }

    /** A subcommand that checks its own arguments and finds too many (both versions word it as 6.2 did). */
    static ErrorReply subcommandArguments(SimNode n, String command, LuaString sub) {
        String text = "nknown subcommand or wrong number of arguments for '" + LuaBridge.utf8(sub) + "'. Try "
                + command.toUpperCase(Locale.ROOT) + " HELP.";
        return new ErrorReply(n.v7() ? "ERR u" + text : "ERR U" + text);
    }

    private static Object auth(SimNode n, LuaString[] a, Session s) {
        if (a.length > 3) return ErrorReply.SYNTAX;
        if (n.requirePass().isEmpty()) {
            return new ErrorReply(a.length == 2
                    ? "ERR AUTH <password> called without any password configured for the default user. Are you sure your configuration is correct?"
                    : "WRONGPASS invalid username-password pair or user is disabled.");
        }
        String user = a.length == 3 ? LuaBridge.utf8(a[1]) : "default";
        String pass = LuaBridge.utf8(a[a.length - 1]);
        if (!user.equals("default") || !pass.equals(n.requirePass())) {
            return new ErrorReply("WRONGPASS invalid username-password pair or user is disabled.");
        }
        s.authenticated = true;
        return StatusReply.OK;
    }

    private static Object flush(SimNode n, LuaString[] a) {
        if (a.length > 2) return ErrorReply.SYNTAX;
        if (a.length == 2) {
            String mode = LuaBridge.utf8(a[1]).toUpperCase(Locale.ROOT);
            if (!mode.equals("ASYNC") && !mode.equals("SYNC")) return ErrorReply.SYNTAX;
        }
        n.data().flush();
        return StatusReply.OK;
    }

    private static Object replicaof(SimNode n, LuaString[] a, Session s) {
        String host = LuaBridge.utf8(a[1]);
        String port = LuaBridge.utf8(a[2]);
        if (host.equalsIgnoreCase("no") && port.equalsIgnoreCase("one")) {
            n.promote();
            return StatusReply.OK;
        }
        Long p = Args.parseLong(a[2]);
        if (p == null || p < 0 || p > 65535) return new ErrorReply("ERR Invalid master port");
        String address = host + ":" + p;
        if (address.equals(n.upstreamAddress())) return new StatusReply("OK Already connected to specified master");
        n.replicaOf(address, n.resolve(address));
        return StatusReply.OK;
    }

    private static Object role(SimNode n, LuaString[] a, Session s) {
        if (n.isReplica()) {
            String addr = n.upstreamAddress();
            int colon = addr.lastIndexOf(':');
            ReplicationLink up = n.upstream();
            return List.of(LuaString.valueOf("slave"), LuaString.valueOf(addr.substring(0, colon)),
                    Long.parseLong(addr.substring(colon + 1)),
                    LuaString.valueOf(up != null && up.up() ? "connected" : "connect"), n.replOffset());
        }
        List<Object> replicas = new ArrayList<>();
        for (ReplicationLink r : n.replicaLinks()) {
            if (!r.replica.isRunning()) continue;
            replicas.add(List.of(LuaString.valueOf(r.replica.host()), LuaString.valueOf(Integer.toString(r.replica.port())),
                    LuaString.valueOf(Long.toString(r.replica.replOffset()))));
        }
        return List.of(LuaString.valueOf("master"), n.replOffset(), replicas);
    }

    private static Object pubsub(SimNode n, LuaString[] a, Session s) {
        String sub = LuaBridge.utf8(a[1]).toLowerCase(Locale.ROOT);
        switch (sub) {
            case "numsub" -> {
                List<Object> out = new ArrayList<>();
                for (int i = 2; i < a.length; i++) {
                    out.add(a[i]);
                    out.add(n.channels().subscribers(LuaBridge.utf8(a[i])));
                }
                return out;
            }
            case "channels" -> {
                if (a.length > 3) return subcommandArguments(n, "pubsub", a[1]);
                List<Object> out = new ArrayList<>();
                for (String c : n.channels().names()) {
                    LuaString name = LuaString.valueOf(c);
                    if (a.length == 2 || Glob.matches(a[2], name)) out.add(name);
                }
                return out;
            }
            case "numpat" -> {
                return 0L;
            }
            default -> {
                return unknownSubcommand(n, "pubsub", a[1]);
            }
        }
    }

    /** Null when {@code policy} is a maxmemory-policy Redis knows, else the reason. */
    static String checkPolicy(String policy) {
        return POLICIES.contains(policy) ? null : "maxmemory-policy must be one of " + POLICIES + ", got " + policy;
    }

    /** The fields CONFIG GET knows, with their current values. */
    static Map<String, String> config(SimNode n) {
        Map<String, String> c = new LinkedHashMap<>();
        c.put("maxmemory", Long.toString(n.maxmemory()));
        c.put("maxmemory-policy", n.maxmemoryPolicy());
        c.put("appendonly", n.persistence().aof() ? "yes" : "no");
        c.put("appendfsync", n.persistence() == Persistence.AOF_ALWAYS ? "always" : "everysec");
        c.put("save", n.save());
        c.put("replica-read-only", n.replicaReadOnly() ? "yes" : "no");
        c.put("slave-read-only", n.replicaReadOnly() ? "yes" : "no");
        c.put("port", Integer.toString(n.port()));
        c.put("databases", "16");
        c.put("requirepass", n.requirePass());
        return c;
    }
}
