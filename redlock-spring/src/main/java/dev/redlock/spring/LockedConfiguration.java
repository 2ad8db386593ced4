package dev.redlock.spring;

import dev.redlock.Redlock;
import org.springframework.aop.Advisor;
import org.springframework.aop.config.AopConfigUtils;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.context.annotation.Role;
import org.springframework.core.type.AnnotationMetadata;

/**
 * Turns on {@link Locked} for the beans of an application context: {@code @Import(LockedConfiguration.class)} (the
 * Spring Boot starter imports it for you). It declares the advisor, an infrastructure bean picked up by Spring's
 * auto-proxy creator (registered here when the context has none), and uses the context's one {@link Redlock} bean,
 * looked up at the first {@code @Locked} call.
 *
 * <p><b>Order with {@code @Transactional}.</b> The advisor has the lowest precedence, as the transaction advisor has
 * by default; registered after it (the starter's auto-configuration runs after the transaction one; with
 * {@code @Import} put {@code @EnableTransactionManagement} first), a method that has both runs the lock inside its
 * transaction: the lease is taken after the transaction began (no statement has run yet), checked before the commit,
 * and released after the commit or rollback, so a lease lost while the method ran rolls the transaction back. A
 * {@code @Locked} method called inside a transaction begun elsewhere keeps its lease until that transaction completes.
 *
 * <p>Bad annotations ({@code ttl} or {@code maxWait} not a duration, a resource that is not SpEL, an asynchronous
 * return type) fail the context at start-up, naming the method.
 */
@Configuration(proxyBeanMethods = false)
@Import(LockedConfiguration.AutoProxy.class)
public class LockedConfiguration {

    /** The {@link Locked} advisor: pointcut on the annotation, interceptor over the context's Redlock. */
    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    public static Advisor redlockLockedAdvisor(BeanFactory beanFactory) {
        return new LockedAdvisor(() -> beanFactory.getBean(Redlock.class));
    }

    /** Registers Spring's infrastructure auto-proxy creator unless the context has one (or a stronger one) already. */
    static class AutoProxy implements ImportBeanDefinitionRegistrar {
        @Override
        public void registerBeanDefinitions(AnnotationMetadata metadata, BeanDefinitionRegistry registry) {
            AopConfigUtils.registerAutoProxyCreatorIfNecessary(registry);
        }
    }
}
