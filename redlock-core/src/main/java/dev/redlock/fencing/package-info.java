/**
 * Fenced writes: the protected resource, not the lock, has the last word.
 *
 * <p>A {@link dev.redlock.Lease} can end without its holder noticing (a GC pause, a stopped VM, a slow network after
 * the last validity check). Its {@linkplain dev.redlock.Lease#fencingToken() fencing token} strictly increases across
 * successive holders, so a resource that remembers the highest token it accepted and rejects every smaller token
 * turns a late write from a superseded holder into a reported rejection instead of silent corruption, while the
 * current holder (a lease, or a leader's term with its epoch) can write as often as it needs with its one token.
 * A strict mode (one write per token: an equal token is refused too) is available on both helpers.
 *
 * <ul>
 *   <li>{@link dev.redlock.fencing.FencedTable}: SQL rows, one conditional
 *       {@code UPDATE ... SET ..., fence = ? WHERE id = ? AND fence <= ?} per write, optional insert of a new row.</li>
 *   <li>{@link dev.redlock.fencing.FencedRedisStore}: Redis keys, one atomic compare-and-set Lua script per write.</li>
 *   <li>{@link dev.redlock.fencing.FencedWriteResult}: APPLIED / INSERTED / REJECTED_STALE / NO_ROW, and
 *       {@link dev.redlock.fencing.FencedWriteResult#orThrow()} for a {@link dev.redlock.fencing.StaleTokenException}.</li>
 * </ul>
 *
 * <p>Fencing protects only the resource that checks the token, and only writes that go through the check. An
 * external side effect that cannot check a token (an e-mail, a payment API) needs idempotency instead, for example a
 * unique key per operation: see {@code dev.redlock.examples.invoice.InvoiceChargeExample}.
 */
package dev.redlock.fencing;
