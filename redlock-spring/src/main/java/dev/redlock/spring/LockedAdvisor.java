package dev.redlock.spring;

import dev.redlock.Redlock;
import java.lang.reflect.Method;
import java.util.function.Supplier;
import org.aopalliance.aop.Advice;
import org.springframework.aop.Pointcut;
import org.springframework.aop.support.AbstractPointcutAdvisor;
import org.springframework.aop.support.StaticMethodMatcherPointcut;
import org.springframework.core.Ordered;

/**
 * The advisor of {@link Locked}: a pointcut that matches annotated methods (and checks their annotation then, so a
 * bad one fails the context at start-up) and the {@link LockedInterceptor}.
 */
final class LockedAdvisor extends AbstractPointcutAdvisor {
    private static final long serialVersionUID = 1L;

    private final transient LockedSpecs specs = new LockedSpecs();
    private final transient LockedInterceptor interceptor;
    private final transient Pointcut pointcut = new StaticMethodMatcherPointcut() {
        @Override
        public boolean matches(Method method, Class<?> targetClass) {
            return specs.get(method, targetClass) != null;
        }
    };

    LockedAdvisor(Supplier<Redlock> redlock) {
        this.interceptor = new LockedInterceptor(redlock, specs);
        setOrder(Ordered.LOWEST_PRECEDENCE);          // inside a transaction advisor registered before it
    }

    @Override
    public Pointcut getPointcut() {
        return pointcut;
    }

    @Override
    public Advice getAdvice() {
        return interceptor;
    }
}
