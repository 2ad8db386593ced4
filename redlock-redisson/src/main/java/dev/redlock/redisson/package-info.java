/**
 * Redlock over Redisson: for applications that already manage one {@code RedissonClient} per Redis master and want
 * the library to use them instead of its own transport. {@link dev.redlock.redisson.RedissonRedlock} creates a
 * {@code Redlock}; {@link dev.redlock.redisson.RedissonFencedStores} a {@code FencedRedisStore}. Everything else is
 * the core's {@code dev.redlock} API.
 */
package dev.redlock.redisson;
