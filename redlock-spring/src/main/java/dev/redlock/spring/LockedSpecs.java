package dev.redlock.spring;

import java.lang.reflect.Method;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.aop.support.AopUtils;
import org.springframework.core.MethodClassKey;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.expression.spel.standard.SpelExpressionParser;

/** The {@link LockedSpec} of each method of each target class, or none; computed once per pair. */
final class LockedSpecs {
    private final Map<MethodClassKey, Optional<LockedSpec>> cache = new ConcurrentHashMap<>();
    private final SpelExpressionParser parser = new SpelExpressionParser();

    /** The spec of {@code method} called on {@code targetClass}, or null when it is not {@link Locked}. */
    LockedSpec get(Method method, Class<?> targetClass) {
        MethodClassKey key = new MethodClassKey(method, targetClass);
        Optional<LockedSpec> spec = cache.get(key);
        if (spec == null) {
            spec = Optional.ofNullable(find(method, targetClass));
            cache.putIfAbsent(key, spec);
        }
        return spec.orElse(null);
    }

    private LockedSpec find(Method method, Class<?> targetClass) {
        Method specific = targetClass == null ? method : AopUtils.getMostSpecificMethod(method, targetClass);
        Locked locked = AnnotatedElementUtils.findMergedAnnotation(specific, Locked.class);
        if (locked == null && specific != method) locked = AnnotatedElementUtils.findMergedAnnotation(method, Locked.class);
        return locked == null ? null : LockedSpec.of(specific, locked, parser);
    }
}
