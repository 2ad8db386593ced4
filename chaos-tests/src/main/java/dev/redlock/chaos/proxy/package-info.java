/**
 * An in-JVM Toxiproxy-compatible server ({@link dev.redlock.chaos.proxy.ToxiproxyServer}): the HTTP API of
 * Toxiproxy 2.x and its toxics, so chaos scenarios written against {@code toxiproxy-java} run without Docker or
 * a Toxiproxy binary. Only {@code ToxiproxyServer} is public; the rest is machinery.
 *
 * <p>Layout: {@code ControlApi} (endpoints) behind {@code ControlHttpHandler} (HTTP) on one control thread;
 * {@code ManagedProxy} (a proxy's config and toxics) owns a {@code Listener} (listening socket) whose
 * {@code ProxyConnection}s each run two {@code Link}s (upstream, downstream) of {@code Stage}s, one per toxic,
 * on a data-plane event loop.
 */
package dev.redlock.chaos.proxy;
