/**
 * For adapter modules, not applications: the small service-provider interface through which another module (such as
 * {@code redlock-redisson}) plugs its own Redis client into a {@code Redlock} or a
 * {@code dev.redlock.fencing.FencedRedisStore}. Applications never need it.
 */
package dev.redlock.spi;
