package dev.redlock.sim;

/** A Redis simple-string reply ({@code +OK}); a Lua script sees it as {@code {ok = text}}. */
record StatusReply(String text) {
    static final StatusReply OK = new StatusReply("OK");
    static final StatusReply PONG = new StatusReply("PONG");
}
