package dev.redlock.spring.boot;

import dev.redlock.Redlock;
import dev.redlock.micrometer.RedlockMetrics;
import dev.redlock.micrometer.RedlockObservations;
import dev.redlock.shedlock.RedlockLockProvider;
import dev.redlock.spring.LockedConfiguration;
import dev.redlock.spring.integration.RedlockLockRegistry;
import io.micrometer.observation.ObservationRegistry;
import net.javacrumbs.shedlock.core.LockProvider;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.integration.support.locks.LockRegistry;

/**
 * Auto-configuration for Spring Boot 3.5 and 4.0 (the classes it uses are the same on both lines): a
 * {@link Redlock} from the {@code redlock.*} properties ({@link RedlockProperties}), closed with the context, and
 * on it, when their libraries are on the class path: a ShedLock {@link RedlockLockProvider}, a Spring Integration 7
 * {@link RedlockLockRegistry} (Spring Integration 6.5, which Boot 3.5 manages, has no {@code DistributedLock}: there
 * no registry is created and the rest starts as usual), Micrometer {@link RedlockMetrics}, {@code @Locked} methods
 * ({@link LockedConfiguration}, with {@code redlock-spring}), and {@link RedlockObservations} when an
 * {@code ObservationRegistry} bean exists (then the acquire and extend timers come from the observations and
 * {@code RedlockMetrics} leaves its own out, see {@link RedlockMetrics.Builder#observed}). Every bean backs off
 * when the application defines one of its type ({@code LockProvider}, {@code LockRegistry}). The health indicator
 * has one auto-configuration per Boot line ({@link RedlockHealthAutoConfigurationBoot3},
 * {@link RedlockHealthAutoConfigurationBoot4}). {@code redlock.enabled=false} turns all of it off.
 *
 * <p>Not done here: marking brand-new nodes fresh ({@link Redlock#markNodesFresh()}); a new deployment's nodes are
 * in their restart quarantine for {@code redlock.restart-quarantine} first.
 */
// after the observation registry (a condition below looks for it) and the transaction advisor (a @Locked method that
// is also @Transactional runs its lock inside the transaction: see LockedConfiguration), on either Boot line
@AutoConfiguration(afterName = {
        "org.springframework.boot.actuate.autoconfigure.observation.ObservationAutoConfiguration",
        "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration",
        "org.springframework.boot.autoconfigure.transaction.TransactionAutoConfiguration",
        "org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration"})
@ConditionalOnClass(Redlock.class)
@ConditionalOnProperty(prefix = "redlock", name = "enabled", havingValue = "true", matchIfMissing = true)
@EnableConfigurationProperties(RedlockProperties.class)
public class RedlockAutoConfiguration {

    /**
     * The Redlock: connects to every node and runs the preflight checks; closed with the context.
     *
     * @throws IllegalArgumentException naming the {@code redlock.*} property when one is out of range
     */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    public Redlock redlock(RedlockProperties properties) {
        return Redlock.create(properties.toConfig());
    }

    /** ShedLock 7: one {@code LockProvider} for {@code @SchedulerLock}. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = {"net.javacrumbs.shedlock.core.LockProvider", "dev.redlock.shedlock.RedlockLockProvider"})
    static class ShedLockConfiguration {
        @Bean
        @ConditionalOnMissingBean(LockProvider.class)
        RedlockLockProvider redlockLockProvider(Redlock redlock) {
            return new RedlockLockProvider(redlock);
        }
    }

    /** Spring Integration 7 only: {@code DistributedLock} is what tells 7 from 6.5. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = {"org.springframework.integration.support.locks.DistributedLock",
            "dev.redlock.spring.integration.RedlockLockRegistry"})
    static class LockRegistryConfiguration {
        @Bean
        @ConditionalOnMissingBean(LockRegistry.class)
        RedlockLockRegistry redlockLockRegistry(Redlock redlock, RedlockProperties properties) {
            return new RedlockLockRegistry(redlock, properties.getLockRegistry().getTtl());
        }
    }

    /** Micrometer: Spring Boot binds every {@code MeterBinder} bean to its registry. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = {"io.micrometer.core.instrument.binder.MeterBinder", "dev.redlock.micrometer.RedlockMetrics"})
    static class MetricsConfiguration {
        @Bean
        @ConditionalOnMissingBean
        RedlockMetrics redlockMetrics(Redlock redlock, RedlockProperties properties,
                                      ObjectProvider<ObservationRegistry> observationRegistry) {
            boolean observed = properties.getObservations().isEnabled() && observationRegistry.getIfAvailable() != null
                    && isPresent("dev.redlock.micrometer.RedlockObservations");
            return RedlockMetrics.builder(redlock).observed(observed).build();
        }

        private static boolean isPresent(String className) {
            try {
                Class.forName(className, false, MetricsConfiguration.class.getClassLoader());
                return true;
            } catch (ClassNotFoundException e) {
                return false;
            }
        }
    }

    /** Micrometer Observations (spans, and timers through the meter handler) when the application has a registry. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = {"io.micrometer.observation.ObservationRegistry", "dev.redlock.micrometer.RedlockObservations"})
    @ConditionalOnBean(type = "io.micrometer.observation.ObservationRegistry")
    @ConditionalOnProperty(prefix = "redlock.observations", name = "enabled", havingValue = "true", matchIfMissing = true)
    static class ObservationConfiguration {
        @Bean(destroyMethod = "close")
        @ConditionalOnMissingBean
        RedlockObservations redlockObservations(Redlock redlock, ObservationRegistry registry, RedlockProperties properties) {
            return RedlockObservations.builder(redlock, registry)
                    .resourceName(properties.getObservations().isResourceName()).build();
        }
    }

    /** {@code @Locked} on bean methods, with {@code redlock-spring} on the class path. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = {"dev.redlock.spring.LockedConfiguration", "org.springframework.aop.Advisor"})
    @Import(LockedConfiguration.class)
    static class LockedAnnotationConfiguration {
    }
}
