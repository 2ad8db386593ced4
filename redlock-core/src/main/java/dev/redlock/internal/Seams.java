package dev.redlock.internal;

import java.security.SecureRandom;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Objects;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongSupplier;

/**
 * Internal, not API: everything that makes a {@code Redlock}'s run nondeterministic, injectable, so tests, the chaos
 * harness and the deterministic simulator can drive the real code: the monotonic ticker, the wall clock, the
 * scheduler of timers (quorum timeouts over an adapter's transports, retries, lease expiry, the watchdog), the executor
 * of loss listeners, and the randomness of owner values and retry jitter. {@link #PRODUCTION} is what
 * {@code Redlock.create} uses: {@code System.nanoTime}, the system clock, its own scheduler and event threads,
 * {@link SecureRandom} owners and {@link ThreadLocalRandom} jitter. A scheduler or executor given here belongs to the
 * caller: closing the Redlock does not shut it down. Immutable. Anything here may change or disappear in any release;
 * applications must not use it.
 *
 * <p>{@link Builder#uncappedGuesses()} switches a safety guard off (nodes then write a client's one-round token guess
 * however far it is ahead of their clock): only for the chaos suite's twin scenarios, which show the violation the
 * guard prevents.
 */
public final class Seams {
    private static final SecureRandom OWNERS = new SecureRandom();

    /** The production seams. */
    public static final Seams PRODUCTION = builder().build();

    private final Ticker ticker;
    private final LongSupplier wallMicros;
    private final ScheduledExecutorService scheduler;
    private final ExecutorService events;
    private final Random random;
    private final boolean uncappedGuesses;

    private Seams(Builder b) {
        this.ticker = b.ticker;
        this.wallMicros = b.wallMicros;
        this.scheduler = b.scheduler;
        this.events = b.events;
        this.random = b.random;
        this.uncappedGuesses = b.uncappedGuesses;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder with these seams. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.ticker = ticker;
        b.wallMicros = wallMicros;
        b.scheduler = scheduler;
        b.events = events;
        b.random = random;
        b.uncappedGuesses = uncappedGuesses;
        return b;
    }

    public Ticker ticker() {
        return ticker;
    }

    /** Wall clock, microseconds since the epoch. */
    public long wallMicros() {
        return wallMicros.getAsLong();
    }

    public LongSupplier wallClock() {
        return wallMicros;
    }

    /** The caller's scheduler, or null: the Redlock makes (and shuts down) its own. */
    public ScheduledExecutorService scheduler() {
        return scheduler;
    }

    /** The caller's executor for loss listeners, or null: the Redlock makes (and shuts down) its own. */
    public ExecutorService events() {
        return events;
    }

    /** A fresh 128-bit random owner value, hex. */
    public String newOwner() {
        byte[] b = new byte[16];
        if (random == null) OWNERS.nextBytes(b);
        else random.nextBytes(b);
        return HexFormat.of().formatHex(b);
    }

    /** Uniform in [origin, bound). */
    public long nextLong(long origin, long bound) {
        return random == null ? ThreadLocalRandom.current().nextLong(origin, bound) : random.nextLong(origin, bound);
    }

    /** Uniform in [0, bound). */
    public long nextLong(long bound) {
        return nextLong(0, bound);
    }

    /** True only in the chaos suite's twins: see the class comment. */
    public boolean uncappedGuesses() {
        return uncappedGuesses;
    }

    /** The system clock, microseconds since the epoch. */
    public static long systemMicros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1000;
    }

    /** Mutable builder; not thread-safe. */
    public static final class Builder {
        private Ticker ticker = Ticker.SYSTEM;
        private LongSupplier wallMicros = Seams::systemMicros;
        private ScheduledExecutorService scheduler;
        private ExecutorService events;
        private Random random;
        private boolean uncappedGuesses;

        private Builder() {}

        public Builder ticker(Ticker ticker) {
            this.ticker = Objects.requireNonNull(ticker, "ticker");
            return this;
        }

        public Builder wallMicros(LongSupplier wallMicros) {
            this.wallMicros = Objects.requireNonNull(wallMicros, "wallMicros");
            return this;
        }

        /** Timers run here instead of on the Redlock's own scheduler thread. */
        public Builder scheduler(ScheduledExecutorService scheduler) {
            this.scheduler = scheduler;
            return this;
        }

        /** Loss listeners run here instead of on the Redlock's own event thread. */
        public Builder events(ExecutorService events) {
            this.events = events;
            return this;
        }

        /** One seeded source for owner values and jitter (not a secure one: for tests and the simulator). */
        public Builder random(Random random) {
            this.random = random;
            return this;
        }

        /** Switches the nodes' cap on guessed tokens off: chaos twins only (see the class comment). */
        public Builder uncappedGuesses() {
            this.uncappedGuesses = true;
            return this;
        }

        public Seams build() {
            return new Seams(this);
        }
    }
}
