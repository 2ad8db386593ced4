/**
 * An in-JVM Toxiproxy-compatible server ({@link dev.redlock.chaos.proxy.ToxiproxyServer}): the HTTP API of
 * Toxiproxy 2.x and its toxics, so chaos scenarios written against {@code toxiproxy-java} run without Docker or
 * a Toxiproxy binary. Only {@code ToxiproxyServer} is public; the rest is machinery.
 *
 * <p>Layout: {@code ControlApi} (endpoints) behind {@code ControlHttpHandler} (HTTP) on one control thread;
 * {@code ManagedProxy} (a proxy's config and toxics) owns a {@code Listener} (listening socket) whose
 * {@code ProxyConnection}s each run two {@code Link}s (upstream, downstream) of {@code Stage}s, one per toxic,
 * on a data-plane event loop.
 *
 * <p>Where it deliberately differs from the real server (v2.12):
 * <ul>
 *   <li>Input is checked harder: {@code listen}/{@code upstream} must be {@code host:port} (400), attributes must
 *       be non-negative integers and toxicity within [0, 1] (400); a JSON type error names the field. An omitted
 *       {@code listen} means {@code 127.0.0.1:0}, not every interface.</li>
 *   <li>Unknown routes and methods answer 404/405 with a JSON error body, like every other error.</li>
 *   <li>{@code slicer} with {@code average_size} 0 passes data whole (the real server recurses forever).</li>
 *   <li>Removing a {@code timeout} toxic closes only the connections where it was active (its toxicity roll
 *       succeeded); removing a {@code reset_peer} toxic while it waits cancels the reset.</li>
 *   <li>A latency update re-times held chunks with the new latency (the real server releases the chunk it is
 *       sleeping on at once).</li>
 *   <li>{@code POST /reset} carries on past a proxy that cannot listen again and reports the first failure.</li>
 *   <li>Answers wait until open connections have applied the change (as the real server does), but at most 2 s.</li>
 * </ul>
 */
package dev.redlock.chaos.proxy;
