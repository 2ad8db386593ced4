package dev.redlock.spring.boot;

import dev.redlock.Redlock;
import dev.redlock.RedlockHealth;
import java.time.Duration;
import org.springframework.boot.actuate.autoconfigure.health.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.actuate.health.AbstractHealthIndicator;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * The {@code redlock} health indicator on Spring Boot 3.x ({@code org.springframework.boot.actuate.health}); on
 * Boot 4 {@link RedlockHealthAutoConfigurationBoot4} does it. UP while a quorum of nodes answers and passes the
 * preflight rules, DOWN otherwise; details per node (see {@link Redlock#checkHealth}). Off with
 * {@code management.health.redlock.enabled=false}.
 */
@AutoConfiguration(after = RedlockAutoConfiguration.class)
@ConditionalOnClass(name = {"org.springframework.boot.actuate.health.AbstractHealthIndicator",
        "org.springframework.boot.actuate.autoconfigure.health.ConditionalOnEnabledHealthIndicator"})
@ConditionalOnBean(Redlock.class)
@ConditionalOnEnabledHealthIndicator("redlock")
public class RedlockHealthAutoConfigurationBoot3 {

    @Bean
    @ConditionalOnMissingBean(name = "redlockHealthIndicator")
    AbstractHealthIndicator redlockHealthIndicator(Redlock redlock, RedlockProperties properties) {
        return new Indicator(redlock, properties.getHealth().getTimeout());
    }

    /** Checks the nodes on each call ({@link Redlock#checkHealth}, bounded by {@code redlock.health.timeout}). */
    static final class Indicator extends AbstractHealthIndicator {
        private final Redlock redlock;
        private final Duration timeout;

        Indicator(Redlock redlock, Duration timeout) {
            super("redlock health check failed");
            this.redlock = redlock;
            this.timeout = timeout;
        }

        @Override
        protected void doHealthCheck(Health.Builder builder) {
            RedlockHealth health = redlock.checkHealth(timeout);
            (health.quorumReachable() ? builder.up() : builder.down()).withDetails(RedlockHealthDetails.of(health));
        }
    }
}
