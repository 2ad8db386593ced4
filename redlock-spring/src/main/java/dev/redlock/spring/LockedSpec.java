package dev.redlock.spring;

import dev.redlock.internal.Durations;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.concurrent.CompletionStage;
import org.springframework.context.expression.MethodBasedEvaluationContext;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.expression.Expression;
import org.springframework.expression.ExpressionParser;
import org.springframework.expression.ParseException;

/**
 * One {@link Locked} method's annotation, checked and parsed once: the resource expression, the TTL, and how long to
 * wait ({@code null}: as {@code Redlock.acquire} does).
 */
record LockedSpec(Method method, String where, Expression resource, Duration ttl, Duration maxWait) {
    private static final ParameterNameDiscoverer NAMES = new DefaultParameterNameDiscoverer();

    /**
     * @throws IllegalArgumentException naming the method and the attribute, when one is malformed
     * @throws IllegalStateException    when the method returns before its work is done (async or reactive types)
     */
    static LockedSpec of(Method method, Locked locked, ExpressionParser parser) {
        String where = "@Locked on " + method.getDeclaringClass().getName() + "." + method.getName() + "()";
        Class<?> returns = method.getReturnType();
        Class<?>[] params = method.getParameterTypes();
        boolean suspend = params.length > 0 && params[params.length - 1].getName().equals("kotlin.coroutines.Continuation");
        if (CompletionStage.class.isAssignableFrom(returns) || isPublisher(returns) || suspend) {
            throw new IllegalStateException(where + " returns " + (suspend ? "from a suspend function" : returns.getName())
                    + " before its work is done, so the lease would end first: use Redlock.withLockAsync, "
                    + "ReactiveRedlock.withLock or withLockSuspending instead");
        }
        Expression resource;
        try {
            resource = parser.parseExpression(locked.resource());
        } catch (ParseException e) {
            throw new IllegalArgumentException(where + ": resource must be a SpEL expression (a constant name is quoted: "
                    + "\"'name'\"), got '" + locked.resource() + "': " + e.getMessage(), e);
        }
        Duration ttl = Durations.parse(where + ": ttl", locked.ttl());
        if (ttl.isNegative() || ttl.isZero()) throw new IllegalArgumentException(where + ": ttl must be > 0, got " + locked.ttl());
        Duration maxWait = null;
        if (!locked.maxWait().isBlank()) {
            maxWait = Durations.parse(where + ": maxWait", locked.maxWait());
            if (maxWait.isNegative()) throw new IllegalArgumentException(where + ": maxWait must be >= 0, got " + locked.maxWait());
        }
        return new LockedSpec(method, where, resource, ttl, maxWait);
    }

    private static boolean isPublisher(Class<?> type) {
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            if (c.getName().equals("org.reactivestreams.Publisher")) return true;
            for (Class<?> i : c.getInterfaces()) if (isPublisher(i)) return true;
        }
        return false;
    }

    /** The resource name for one call. */
    String resource(Object[] args) {
        Object value = resource.getValue(new MethodBasedEvaluationContext(null, method, args, NAMES));
        if (value == null || value.toString().isEmpty()) {
            throw new IllegalArgumentException(where + ": resource '" + resource.getExpressionString()
                    + "' evaluated to " + (value == null ? "null" : "an empty name"));
        }
        return value.toString();
    }
}
