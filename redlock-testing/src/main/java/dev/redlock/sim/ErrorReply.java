package dev.redlock.sim;

/**
 * A Redis error reply: {@code text} as the server sends it after the {@code -} (e.g.
 * {@code WRONGTYPE Operation against a key holding the wrong kind of value}). {@code scriptLayer} marks the errors
 * the scripting layer itself raises around {@code redis.call} (unknown command, wrong arity, not allowed, OOM,
 * READONLY), which Redis 6.2 words differently from the command's own errors.
 */
record ErrorReply(String text, boolean scriptLayer) {
    ErrorReply(String text) {
        this(text, false);
    }

    static final ErrorReply WRONGTYPE = new ErrorReply("WRONGTYPE Operation against a key holding the wrong kind of value");
    static final ErrorReply NOT_INTEGER = new ErrorReply("ERR value is not an integer or out of range");
    static final ErrorReply SYNTAX = new ErrorReply("ERR syntax error");
    static final ErrorReply OVERFLOW = new ErrorReply("ERR increment or decrement would overflow");
    static final ErrorReply NOSCRIPT = new ErrorReply("NOSCRIPT No matching script. Please use EVAL.");
    static final ErrorReply NOSCRIPT_VALKEY = new ErrorReply("NOSCRIPT No matching script.");
    static final ErrorReply OOM = new ErrorReply("OOM command not allowed when used memory > 'maxmemory'.");
    static final ErrorReply READONLY = new ErrorReply("READONLY You can't write against a read only replica.");
}
