package dev.redlock.sim;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.luaj.vm2.Globals;
import org.luaj.vm2.LoadState;
import org.luaj.vm2.LuaClosure;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Prototype;
import org.luaj.vm2.Varargs;
import org.luaj.vm2.compiler.LuaC;
import org.luaj.vm2.lib.BaseLib;
import org.luaj.vm2.lib.OneArgFunction;
import org.luaj.vm2.lib.PackageLib;
import org.luaj.vm2.lib.StringLib;
import org.luaj.vm2.lib.TableLib;
import org.luaj.vm2.lib.VarArgFunction;
import org.luaj.vm2.lib.jse.JseMathLib;

/**
 * Runs scripts the way Redis's scripting layer does, in LuaJ: one set of globals per thread (libraries loaded
 * once), each script compiled once per JVM (by SHA-1) and its closure made once per thread; {@code KEYS} and
 * {@code ARGV} set fresh for every run; {@code redis.call}/{@code pcall}/{@code sha1hex}/{@code error_reply}/
 * {@code status_reply}/{@code log}; the RESP↔Lua conversions; globals read-only and unknown globals an error; error
 * texts in the wording of the node's Redis version. Scripts run to completion on the calling thread: atomic, as
 * the simulation is single-threaded.
 */
final class LuaBridge {
    /**
     * One instance per distinct name, shared by every thread's tables and by the compiled scripts' constants: a
     * table lookup of a script's constant then finds its key by identity instead of comparing bytes (LuaJ spent a
     * third of a script's time there).
     */
    private static final Map<LuaString, LuaString> CANONICAL = new java.util.concurrent.ConcurrentHashMap<>();

    private static final ThreadLocal<LuaBridge> PER_THREAD = ThreadLocal.withInitial(LuaBridge::new);
    private static final Pattern POSITION = Pattern.compile("^user_script:(\\d+) (.*)$", Pattern.DOTALL);
    private static final LuaString KEYS = LuaString.valueOf("KEYS");
    private static final LuaString ARGV = LuaString.valueOf("ARGV");
    private static final LuaString ERR = canonical(LuaString.valueOf("err"));
    private static final LuaString OK = canonical(LuaString.valueOf("ok"));
    private static final LuaString OK_TEXT = LuaString.valueOf("OK");

    static {
        canonical(KEYS);
        canonical(ARGV);
    }

    /** The one instance of {@code name} that tables and compiled constants share. */
    static LuaString canonical(LuaString name) {
        return CANONICAL.computeIfAbsent(name, x -> x);
    }

    private final Globals globals = new Globals();
    private final Map<Prototype, LuaClosure> closures = new IdentityHashMap<>();
    private final MessageDigest sha1;
    private SimNode node;

    private LuaBridge() {
        try {
            sha1 = MessageDigest.getInstance("SHA-1");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        globals.load(new BaseLib());
        globals.load(new PackageLib());
        globals.load(new TableLib());
        globals.load(new StringLib());
        globals.load(new JseMathLib());
        LoadState.install(globals);
        LuaC.install(globals);
        for (String unsafe : List.of("dofile", "loadfile", "require", "module", "package", "collectgarbage", "print")) {
            globals.set(unsafe, LuaValue.NIL);
        }
        globals.set("unpack", globals.get("table").get("unpack"));
        globals.get("string").set("format", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                return LuaFormat.format(args);
            }
        });
        LuaValue patternFind = globals.get("string").get("find");
        globals.get("string").set("find", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                return args.arg(4).toboolean() ? plainFind(args) : patternFind.invoke(args);
            }
        });
        LuaValue plainToString = globals.get("tostring");
        globals.set("tostring", new OneArgFunction() {
            @Override
            public LuaValue call(LuaValue v) {
                return v.type() == LuaValue.TNUMBER ? LuaString.valueOf(LuaFormat.number(v.todouble())) : plainToString.call(v);
            }
        });
        globals.set("redis", redisTable());
        LuaTable guard = new LuaTable();
        guard.set("__newindex", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                throw new LuaError("Attempt to modify a readonly table");
            }
        });
        guard.set("__index", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                throw new LuaError("Script attempted to access nonexistent global variable '" + args.arg(2).tojstring() + "'");
            }
        });
        globals.setmetatable(guard);
        canonicalKeys(globals);
        for (String lib : List.of("string", "math", "table", "redis")) canonicalKeys((LuaTable) globals.rawget(lib));
    }

    /** Re-keys {@code t} with the canonical instances of its names (see {@link #CANONICAL}). */
    private static void canonicalKeys(LuaTable t) {
        for (LuaValue k : t.keys()) {
            if (k.type() != LuaValue.TSTRING) continue;
            LuaString key = (LuaString) k;
            LuaString c = CANONICAL.computeIfAbsent(key, x -> x);
            if (c != key) {
                LuaValue v = t.rawget(key);
                t.rawset(key, LuaValue.NIL);
                t.rawset(c, v);
            }
        }
    }

    /** Replaces a compiled script's string constants by the canonical instances (see {@link #canonicalKeys}). */
    static void canonicalConstants(Prototype p) {
        current();   // the tables' names are known once one thread's globals exist
        for (int i = 0; i < p.k.length; i++) {
            if (p.k[i].type() == LuaValue.TSTRING) {
                LuaString c = CANONICAL.get((LuaString) p.k[i]);
                if (c != null) p.k[i] = c;
            }
        }
        for (Prototype child : p.p) canonicalConstants(child);
    }

    static LuaBridge current() {
        return PER_THREAD.get();
    }

    /** The SHA-1 of a script body, as Redis names scripts (40 lower-case hex digits). */
    String sha1hex(LuaString body) {
        sha1.reset();
        sha1.update(body.m_bytes, body.m_offset, body.m_length);
        return HexFormat.of().formatHex(sha1.digest());
    }

    /** A LuaJ error message with its position in Redis's form ({@code user_script:3: ...}). */
    static String position(String m) {
        if (m == null) return "?";
        Matcher p = POSITION.matcher(m);
        String text = p.matches() ? "user_script:" + p.group(1) + ": " + p.group(2) : m;
        return text.replace("[string \"user_script\"]", "user_script").replace("'<eos>'", "'<eof>'");
    }

    /** Runs a compiled script on {@code on}; returns the node's reply. */
    Object run(SimNode on, ScriptCache.Compiled script, LuaString[] keys, LuaString[] argv) {
        Prototype p = script.prototype();
        String sha = script.sha();
        LuaClosure closure = closures.get(p);
        if (closure == null) {
            closure = new LuaClosure(p, globals);
            closures.put(p, closure);
        }
        globals.rawset(KEYS, array(keys));
        globals.rawset(ARGV, array(argv));
        SimNode previous = node;
        node = on;
        try {
            return fromLua(closure.call());
        } catch (RedisCallError e) {
            return scriptError(on, sha, e.reply, e.line());
        } catch (LuaError e) {
            return runtimeError(on, sha, e);
        } catch (StackOverflowError e) {
            return new ErrorReply(on.v7() ? "ERR stack overflow script: " + sha : "ERR Error running script (call to f_" + sha + "): stack overflow");
        } finally {
            node = previous;
        }
    }

    /** {@code string.find(s, needle, init, true)}: a plain search (LuaJ's compares a substring at every position). */
    private static Varargs plainFind(Varargs args) {
        LuaString s = args.checkstring(1);
        LuaString needle = args.checkstring(2);
        int init = args.optint(3, 1);
        int len = s.m_length;
        if (init < 0) init = Math.max(1, len + init + 1);
        else if (init == 0) init = 1;
        if (init > len + 1) return LuaValue.NIL;
        byte[] a = s.m_bytes;
        byte[] b = needle.m_bytes;
        int n = needle.m_length;
        outer:
        for (int i = init - 1; i + n <= len; i++) {
            for (int j = 0; j < n; j++) {
                if (a[s.m_offset + i + j] != b[needle.m_offset + j]) continue outer;
            }
            return LuaValue.varargsOf(LuaValue.valueOf(i + 1), LuaValue.valueOf(i + n));
        }
        return LuaValue.NIL;
    }

    private static LuaTable array(LuaString[] values) {
        LuaTable t = new LuaTable(values.length, 0);
        for (int i = 0; i < values.length; i++) t.rawset(i + 1, values[i]);
        return t;
    }

    /** An error raised by {@code redis.call} (the command's reply), caught at the top of the script. */
    private static final class RedisCallError extends LuaError {
        private static final long serialVersionUID = 1L;
        final transient ErrorReply reply;

        RedisCallError(ErrorReply reply) {
            super(reply.text());
            this.reply = reply;
        }

        String line() {
            String f = fileline;
            if (f == null) return "?";
            int colon = f.lastIndexOf(':');
            return colon < 0 ? "?" : f.substring(colon + 1);
        }

        @Override
        public synchronized Throwable fillInStackTrace() {
            return this;
        }
    }

    private static ErrorReply scriptError(SimNode on, String sha, ErrorReply r, String line) {
        if (on.v7()) return new ErrorReply(r.text() + " script: " + sha + ", on @user_script:" + line + ".");
        String inner = r.scriptLayer() ? "@user_script: " + line + ": " + legacyScriptLayer(r.text()) : r.text();
        return new ErrorReply("ERR Error running script (call to f_" + sha + "): @user_script:" + line + ": " + inner);
    }

    private static ErrorReply runtimeError(SimNode on, String sha, LuaError e) {
        LuaValue obj = e.getMessageObject();
        if (obj != null && obj.istable()) {
            LuaValue err = obj.rawget(ERR);
            if (on.v7() && err.type() == LuaValue.TSTRING) return new ErrorReply(err.tojstring() + " script: " + sha + ", on @user_script:?.");
            return new ErrorReply(on.v7() ? "ERR " + obj.tojstring() + " script: " + sha
                    : "ERR Error running script (call to f_" + sha + "): @err_handler_def:9: err_handler_def:9: attempt to "
                    + "concatenate local 'err' (a table value)");
        }
        String m = String.valueOf(e.getMessage());
        Matcher p = POSITION.matcher(m);
        String line = p.matches() ? p.group(1) : "?";
        String text = p.matches() ? "user_script:" + line + ": " + p.group(2) : m;
        if (on.v7()) return new ErrorReply("ERR " + text + " script: " + sha + ", on @user_script:" + line + ".");
        return new ErrorReply("ERR Error running script (call to f_" + sha + "): @user_script:" + line + ": " + text);
    }

    /** An error of the scripting layer itself, worded in 7.x's terms (6.2's are derived when the script fails). */
    static ErrorReply layerError(SimNode on, String redis7) {
        if (on.valkeyVersion() == null) return new ErrorReply(redis7, true);
        return new ErrorReply(switch (redis7) {
            case "ERR Unknown Redis command called from script" -> "ERR Unknown command called from script";
            case "ERR Wrong number of args calling Redis command from script" -> "ERR Wrong number of args calling command from script";
            case "ERR Please specify at least one argument for this redis lib call" -> "ERR Please specify at least one argument for this call";
            case "ERR Lua redis lib command arguments must be strings or integers" -> "ERR Command arguments must be strings or integers";
            default -> redis7;
        }, true);
    }

    /** Redis 6.2's wording of the scripting layer's own errors. */
    private static String legacyScriptLayer(String text7) {
        return switch (text7) {
            case "ERR Unknown Redis command called from script" -> "Unknown Redis command called from Lua script";
            case "ERR Wrong number of args calling Redis command from script" -> "Wrong number of args calling Redis command From Lua script";
            case "ERR This Redis command is not allowed from script" -> "This Redis command is not allowed from scripts";
            case "ERR Lua redis lib command arguments must be strings or integers" -> "Lua redis() command arguments must be strings or integers";
            case "ERR Please specify at least one argument for this redis lib call" -> "Please specify at least one argument for redis.call()";
            default -> "-" + text7;
        };
    }

    // ---- the redis table ----

    private LuaTable redisTable() {
        LuaTable r = new LuaTable();
        r.set("call", new Call(false));
        r.set("pcall", new Call(true));
        r.set("sha1hex", new OneArgFunction() {
            @Override
            public LuaValue call(LuaValue v) {
                return LuaString.valueOf(sha1hex(v.checkstring()));
            }
        });
        r.set("error_reply", new OneArgFunction() {
            @Override
            public LuaValue call(LuaValue v) {
                String s = v.checkjstring();
                LuaTable t = new LuaTable();
                t.set(ERR, LuaString.valueOf(s.startsWith("-") ? s.substring(1) : s));
                return t;
            }
        });
        r.set("status_reply", new OneArgFunction() {
            @Override
            public LuaValue call(LuaValue v) {
                LuaTable t = new LuaTable();
                t.set(OK, v.checkstring());
                return t;
            }
        });
        r.set("log", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                return NONE;
            }
        });
        r.set("replicate_commands", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                return TRUE;
            }
        });
        r.set("LOG_DEBUG", 0);
        r.set("LOG_VERBOSE", 1);
        r.set("LOG_NOTICE", 2);
        r.set("LOG_WARNING", 3);
        return r;
    }

    /** {@code redis.call} / {@code redis.pcall}. */
    private final class Call extends VarArgFunction {
        private final boolean protectedCall;

        Call(boolean protectedCall) {
            this.protectedCall = protectedCall;
        }

        @Override
        public Varargs invoke(Varargs args) {
            int n = args.narg();
            Object reply;
            if (n == 0) {
                reply = layerError(node, "ERR Please specify at least one argument for this redis lib call");
            } else {
                LuaString[] a = new LuaString[n];
                reply = null;
                for (int i = 0; i < n; i++) {
                    LuaValue v = args.arg(i + 1);
                    int t = v.type();
                    if (t == TSTRING) {
                        a[i] = (LuaString) v;
                    } else if (t == TNUMBER) {
                        a[i] = LuaString.valueOf(LuaFormat.argument(v.todouble()));
                    } else {
                        reply = layerError(node, "ERR Lua redis lib command arguments must be strings or integers");
                        break;
                    }
                }
                if (reply == null) reply = node.scriptCall(a);
            }
            if (reply instanceof ErrorReply e) {
                if (!protectedCall) throw new RedisCallError(e);
                LuaTable t = new LuaTable();
                String text = e.scriptLayer() && !node.v7() ? "@user_script: ?: " + legacyScriptLayer(e.text()) : e.text();
                t.set(ERR, LuaString.valueOf(text));
                return t;
            }
            return toLua(reply);
        }
    }

    /** A node's reply as a Lua value (nil bulk → false, status → {ok=...}, arrays → tables). */
    static LuaValue toLua(Object reply) {
        if (reply == null) return LuaValue.FALSE;
        if (reply instanceof LuaString s) return s;
        if (reply instanceof Long l) {
            long v = l;
            return v == (int) v ? LuaValue.valueOf((int) v) : LuaValue.valueOf((double) v);
        }
        if (reply instanceof StatusReply st) {
            LuaTable t = new LuaTable(0, 1);
            t.rawset(OK, st == StatusReply.OK ? OK_TEXT : LuaString.valueOf(st.text()));
            return t;
        }
        if (reply instanceof ErrorReply e) {
            LuaTable t = new LuaTable();
            t.set(ERR, LuaString.valueOf(e.text()));
            return t;
        }
        List<?> list = (List<?>) reply;
        LuaTable t = new LuaTable(list.size(), 0);
        for (int i = 0; i < list.size(); i++) t.rawset(i + 1, toLua(list.get(i)));
        return t;
    }

    /** A script's return value as a node reply (Redis's Lua → RESP rules). */
    static Object fromLua(LuaValue v) {
        switch (v.type()) {
            case LuaValue.TSTRING:
                return v.checkstring();
            case LuaValue.TNUMBER:
                return toLongLikeC(v.todouble());
            case LuaValue.TBOOLEAN:
                return v.toboolean() ? 1L : null;
            case LuaValue.TTABLE: {
                LuaValue err = v.rawget(ERR);
                if (err.type() == LuaValue.TSTRING) return new ErrorReply(err.tojstring());
                LuaValue ok = v.rawget(OK);
                if (ok.type() == LuaValue.TSTRING) return new StatusReply(ok.tojstring());
                List<Object> out = new ArrayList<>();
                for (int i = 1; ; i++) {
                    LuaValue e = v.rawget(i);
                    if (e.isnil()) break;
                    out.add(fromLua(e));
                }
                return out;
            }
            default:
                return null;
        }
    }

    /**
     * {@code (long long) d} as Redis's C does it on x86-64: truncation, and the "integer indefinite" value
     * {@code LLONG_MIN} for NaN and anything outside the range (Java's cast would saturate instead).
     */
    static long toLongLikeC(double d) {
        if (Double.isNaN(d) || d >= 0x1p63 || d < -0x1p63) return Long.MIN_VALUE;
        return (long) d;
    }

    static String utf8(LuaString s) {
        return new String(s.m_bytes, s.m_offset, s.m_length, StandardCharsets.UTF_8);
    }
}
