package dev.redlock.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs the annotated bean method while holding a Redlock lease on {@link #resource()}: acquired before the method
 * runs, kept alive (extended every ttl/3) while it runs, released when it returns or throws, or, when the method runs
 * inside a transaction, after that transaction commits or rolls back, never before. Inside the method the lease
 * (and its fencing token) is {@link LockedContext#lease()}.
 *
 * <pre>{@code
 * @Locked(resource = "'invoice:' + #id", ttl = "30s", maxWait = "5s")
 * public void charge(String id, long cents) { ... payments.write(id, cents, LockedContext.lease().fencingToken()); }
 * }</pre>
 *
 * <ul>
 *   <li><b>Unavailable</b>: a {@link dev.redlock.LockUnavailableException} is thrown (the method does not run) when
 *       the lock stays held elsewhere, or no quorum answers, for {@link #maxWait()}.</li>
 *   <li><b>Loss</b> (the watchdog could not extend the lease, {@code maxHold} was reached, the Redlock was closed):
 *       the method is not interrupted; when it returns, a {@link dev.redlock.LeaseLostException} is thrown instead
 *       of its result (a transaction the method runs in then rolls back), and a transaction that was already under
 *       way around the method fails to commit ({@code beforeCommit} checks the lease) and rolls back.</li>
 *   <li>Applied by a Spring AOP proxy ({@link LockedConfiguration}, auto-configured by the Boot starter): calls from
 *       inside the same bean ({@code this.charge(...)}) are not intercepted, as with {@code @Transactional}. Methods
 *       returning a {@code CompletionStage}, a Reactive Streams {@code Publisher} or Kotlin {@code suspend} functions
 *       are refused at start-up (the lease would end before their work): use {@code Redlock.withLockAsync},
 *       {@code ReactiveRedlock} or {@code withLockSuspending}.</li>
 *   <li>Not re-entrant: a {@code @Locked} method that calls another on the same resource waits for itself (and gets
 *       a {@code LockUnavailableException} after {@code maxWait}).</li>
 * </ul>
 *
 * <p>Not guaranteed: mutual exclusion of the method's side effects if the process pauses past the lease's validity;
 * pass {@code LockedContext.lease().fencingToken()} to what the method writes. Tested: {@code LockedIT} in
 * {@code redlock-spring}, {@code LockedTransactionIT} in each Boot application of {@code compat/}.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface Locked {

    /**
     * The resource to lock: a SpEL expression over the method's arguments, by name ({@code #id}, needs the
     * {@code -parameters} compiler flag, which Spring Boot's build sets) or position ({@code #p0}, {@code #a0}).
     * A constant name is a quoted literal: {@code "'nightly-report'"}. Parsed at start-up; evaluated per call, and
     * the result's {@code toString()} must be a valid resource name (1..1024 characters, not starting with
     * {@code __}).
     */
    String resource();

    /**
     * The lease TTL: {@code 30s}, {@code 500ms}, {@code 1m}, ISO-8601 {@code PT30S} or a number of milliseconds;
     * default 30 s. It must be within the Redlock's limits (above the drift allowance, at most
     * {@code restartQuarantine} while the amnesia guard is on); the lease is kept alive past it while the method
     * runs.
     */
    String ttl() default "30s";

    /**
     * How long to keep trying while the lock is held elsewhere: {@code 0} makes one quorum round; a duration keeps
     * retrying (waking up when the holder releases) until it has passed; empty (the default) waits as
     * {@code Redlock.acquire} does ({@code retryCount} retries, {@code retryDelay} apart).
     */
    String maxWait() default "";
}
