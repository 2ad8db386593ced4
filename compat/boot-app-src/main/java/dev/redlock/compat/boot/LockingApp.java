package dev.redlock.compat.boot;

import dev.redlock.Redlock;
import dev.redlock.RedlockConfig;
import java.time.Duration;
import java.util.Arrays;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * The smallest Spring Boot application using redlock-core: one {@link Redlock} bean over the nodes in
 * {@code redlock.nodes}. Compiled and tested once per Spring Boot line (compat/boot35-app, compat/boot40-app), each
 * with the Netty that line manages.
 */
@SpringBootApplication
public class LockingApp {

    @Bean(destroyMethod = "close")
    Redlock redlock(Environment env) {
        String nodes = env.getRequiredProperty("redlock.nodes");
        return Redlock.create(RedlockConfig.builder()
                .nodes(Arrays.asList(nodes.split(",")))
                .restartQuarantine(Duration.ZERO)                 // throw-away test nodes, never restarted
                .build());
    }
}
