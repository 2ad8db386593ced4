package dev.redlock.sim;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.luaj.vm2.LuaString;

/**
 * One command of the simulated node: its name, Redis's arity (positive = exact, negative = at least), its flags and
 * its implementation. The table ({@link #lookup}) holds exactly what the model implements; anything else is an
 * unknown command, as on a server that does not have it.
 */
record Command(String name, int arity, int flags, Handler handler) {
    static final int WRITE = 1;
    static final int DENYOOM = 2;
    /** Not allowed from scripts. */
    static final int NOSCRIPT = 4;

    /** A command's body: arguments include the command name at index 0. */
    @FunctionalInterface
    interface Handler {
        Object run(SimNode node, LuaString[] args, Session session);
    }

    private static final Map<String, Command> BY_NAME = new HashMap<>();
    private static final Map<LuaString, Command> BY_BYTES = new HashMap<>();

    static {
        DataCommands.register();
        ServerCommands.register();
    }

    static void add(String name, int arity, int flags, Handler h) {
        Command c = new Command(name, arity, flags, h);
        BY_NAME.put(name, c);
        BY_BYTES.put(LuaBridge.canonical(LuaString.valueOf(name)), c);
        BY_BYTES.put(LuaBridge.canonical(LuaString.valueOf(name.toUpperCase(Locale.ROOT))), c);
    }

    /** The command named {@code name} (any case), or null. */
    static Command lookup(LuaString name) {
        Command c = BY_BYTES.get(name);
        return c != null ? c : BY_NAME.get(LuaBridge.utf8(name).toLowerCase(Locale.ROOT));
    }

    boolean arityOk(int argc) {
        return arity >= 0 ? argc == arity : argc >= -arity;
    }

    boolean is(int flag) {
        return (flags & flag) != 0;
    }
}
