/**
 * Internal, not API: machinery shared by the library's packages ({@code dev.redlock}, {@code dev.redlock.election},
 * {@code dev.redlock.fencing}) and this project's tools, kept once here instead of copied: the monotonic clock
 * ({@code Ticker}), node URIs and password redaction, duration parsing and printing, the resource-name rule, script
 * SHA-1s and the {@code NOSCRIPT} test, failure unwrapping, daemon thread factories, and the bridges to a
 * {@code Redlock}'s internals. Public Java only so those packages and modules can reach it; it is not part of the
 * documented API (leave it out of javadoc published for users), no API type exposes it, and anything here may
 * change or disappear in any release. Applications must not use it.
 */
package dev.redlock.internal;
