/**
 * Internal, not API: the library's own RESP2 client over Netty (one multiplexed, auto-pipelined connection per
 * node, a dedicated pub/sub connection, reconnect with backoff, AUTH/SELECT, TLS, a per-connection handshake).
 * Public only so other packages and modules of this project (the fenced store, diagnostics) can reuse it with
 * exactly the library's URI, TLS and ACL semantics. Anything here may change or disappear in any release;
 * applications must not use it.
 */
package dev.redlock.internal.resp;
