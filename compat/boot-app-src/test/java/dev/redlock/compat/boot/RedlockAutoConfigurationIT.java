package dev.redlock.compat.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.Preflight;
import dev.redlock.Redlock;
import dev.redlock.RedlockConfig;
import dev.redlock.micrometer.RedlockMetrics;
import dev.redlock.micrometer.RedlockObservations;
import dev.redlock.shedlock.RedlockLockProvider;
import dev.redlock.spring.boot.RedlockAutoConfiguration;
import dev.redlock.spring.boot.RedlockHealthAutoConfigurationBoot3;
import dev.redlock.spring.boot.RedlockHealthAutoConfigurationBoot4;
import dev.redlock.testkit.RedisCluster;
import io.micrometer.observation.ObservationRegistry;
import java.time.Duration;
import java.util.Map;
import net.javacrumbs.shedlock.core.LockProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The starter's auto-configuration on this Boot line (ApplicationContextRunner), against three real nodes shared by
 * the class: the beans it creates, what each needs on the class path, backing off, property errors, health.
 */
class RedlockAutoConfigurationIT {
    private static final String LINE = System.getProperty("expected.boot.line");
    private static RedisCluster cluster;

    @BeforeAll
    static void startNodes() {
        cluster = RedisCluster.start(3);
    }

    @AfterAll
    static void stopNodes() {
        if (cluster != null) cluster.close();
    }

    private static ApplicationContextRunner runner() {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(RedlockAutoConfiguration.class,
                        RedlockHealthAutoConfigurationBoot3.class, RedlockHealthAutoConfigurationBoot4.class))
                .withPropertyValues("redlock.nodes=" + String.join(",", cluster.uris()),
                        "redlock.restart-quarantine=0", "redlock.node-timeout=250ms", "redlock.health.timeout=500ms");
    }

    @Test
    void aRedlockFromThePropertiesClosedWithTheContext() {
        Redlock[] seen = new Redlock[1];
        runner().withPropertyValues("redlock.key-prefix=app:", "redlock.preflight=warn", "redlock.retry-count=5",
                "redlock.drift-factor=0.02", "redlock.fixed-drift=3ms", "redlock.retry-delay=50ms",
                "redlock.retry-jitter=20ms", "redlock.quorum=3", "redlock.fencing=true").run(ctx -> {
            assertNull(ctx.getStartupFailure());
            Redlock redlock = ctx.getBean(Redlock.class);
            RedlockConfig c = redlock.config();
            assertEquals("app:", c.keyPrefix());
            assertEquals(Preflight.WARN, c.preflight());
            assertEquals(5, c.retryCount());
            assertEquals(3, c.quorum());
            assertEquals(0.02, c.driftFactor());
            assertEquals(Duration.ofMillis(3), c.fixedDrift());
            assertEquals(Duration.ofMillis(250), c.nodeTimeout());
            assertEquals(Duration.ofMillis(50), c.retryDelay());
            assertEquals(Duration.ofMillis(20), c.retryJitter());
            assertEquals(Duration.ZERO, c.restartQuarantine());
            redlock.acquire("ctx", Duration.ofSeconds(2)).release();
            seen[0] = redlock;
        });
        IllegalStateException closed = assertThrows(IllegalStateException.class,
                () -> seen[0].acquire("ctx", Duration.ofSeconds(2)));
        assertEquals("Redlock is closed", closed.getMessage());
    }

    @Test
    void aBadPropertyFailsTheStartNamingIt() {
        runner().withPropertyValues("redlock.quorum=1").run(ctx -> {
            Throwable failure = ctx.getStartupFailure();
            assertNotNull(failure);
            assertTrue(messages(failure).contains("redlock.quorum must satisfy N/2 < quorum <= N (N=3), got 1"),
                    messages(failure));
        });
    }

    private static String messages(Throwable t) {
        StringBuilder b = new StringBuilder();
        for (; t != null; t = t.getCause()) b.append(t.getMessage()).append(" | ");
        return b.toString();
    }

    /** ShedLock and Micrometer on both lines; the Spring Integration 7 registry on Boot 4 only (3.5 has 6.5). */
    @Test
    void theIntegrationBeansOfThisLine() {
        runner().run(ctx -> {
            assertNull(ctx.getStartupFailure(), "starts with Spring Integration " + LINE + "'s version on the class path");
            assertTrue(ctx.getBean(LockProvider.class) instanceof RedlockLockProvider);
            assertNotNull(ctx.getBean(RedlockMetrics.class));
            boolean registry = ctx.containsBean("redlockLockRegistry");
            if (LINE.equals("3.5")) {
                assertFalse(registry, "Spring Integration 6.5 has no DistributedLock: no registry");
                assertTrue(ctx.getClassLoader().getResource("dev/redlock/spring/integration/RedlockLockRegistry.class") != null,
                        "the registry's classes are on the class path, and must not be loaded");
            } else {
                assertTrue(registry);
                assertEquals("dev.redlock.spring.integration.RedlockLockRegistry",
                        ctx.getBean("redlockLockRegistry").getClass().getName());
            }
        });
    }

    @Test
    void withoutTheirLibrariesTheIntegrationBeansAreLeftOut() {
        runner().withClassLoader(new FilteredClassLoader("net.javacrumbs.shedlock", "io.micrometer.core",
                "org.springframework.integration")).run(ctx -> {
            assertNull(ctx.getStartupFailure());
            assertNotNull(ctx.getBean(Redlock.class));
            assertFalse(ctx.containsBean("redlockLockProvider"));
            assertFalse(ctx.containsBean("redlockMetrics"));
            assertFalse(ctx.containsBean("redlockLockRegistry"));
        });
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnBeans {
        @Bean(destroyMethod = "close")
        Redlock ownRedlock() {
            return Redlock.create(RedlockConfig.builder().nodes(cluster.uris()).restartQuarantine(Duration.ZERO).build());
        }

        @Bean
        LockProvider ownLockProvider(Redlock ownRedlock) {
            return new RedlockLockProvider(ownRedlock, "own:");
        }

        @Bean
        RedlockMetrics ownMetrics(Redlock ownRedlock) {
            return new RedlockMetrics(ownRedlock);
        }
    }

    @Test
    void everyBeanBacksOffForTheApplicationsOwn() {
        runner().withUserConfiguration(OwnBeans.class).run(ctx -> {
            assertNull(ctx.getStartupFailure());
            assertEquals(Map.of("ownRedlock", ctx.getBean("ownRedlock")), ctx.getBeansOfType(Redlock.class));
            assertEquals(1, ctx.getBeansOfType(LockProvider.class).size());
            assertSame(ctx.getBean("ownLockProvider"), ctx.getBean(LockProvider.class));
            assertEquals(1, ctx.getBeansOfType(RedlockMetrics.class).size());
            assertTrue(ctx.containsBean("redlockHealthIndicator"), "the health indicator uses the application's Redlock");
        });
    }

    @Test
    void redlockEnabledFalseTurnsItAllOff() {
        runner().withPropertyValues("redlock.enabled=false").run(ctx -> {
            assertNull(ctx.getStartupFailure());
            assertTrue(ctx.getBeansOfType(Redlock.class).isEmpty());
            assertFalse(ctx.containsBean("redlockHealthIndicator"));
            assertFalse(ctx.containsBean("redlockLockProvider"));
        });
    }

    /** One indicator, this line's; UP with a quorum, DOWN without; off by Boot's own switch. */
    @Test
    void theHealthIndicatorOfThisLineReportsTheQuorumAndEachNode() {
        runner().run(ctx -> {
            Object indicator = ctx.getBean("redlockHealthIndicator");
            assertTrue(indicator.getClass().getName().contains(LINE.equals("3.5") ? "Boot3" : "Boot4"),
                    indicator.getClass().getName());
            Health up = Health.of(indicator);
            assertEquals("UP", up.status(), up.toString());
            assertEquals(2, up.details().get("quorum"));
            Map<?, ?> nodes = (Map<?, ?>) up.details().get("nodes");
            assertEquals(3, nodes.size());
            for (var node : cluster.nodes()) {
                assertEquals("UP", ((Map<?, ?>) nodes.get("127.0.0.1:" + node.port())).get("status"), nodes.toString());
            }
            cluster.node(0).pause();
            cluster.node(1).pause();
            try {
                Health down = Health.of(indicator);
                assertEquals("DOWN", down.status(), down.toString());
                assertEquals(1L, down.details().get("nodesUp"));
            } finally {
                cluster.node(0).resume();
                cluster.node(1).resume();
            }
        });
        runner().withPropertyValues("management.health.redlock.enabled=false")
                .run(ctx -> assertFalse(ctx.containsBean("redlockHealthIndicator")));
    }

    @Test
    void observationsWhenARegistryExistsAndTheLockedAdvisorAlways() {
        runner().run(ctx -> {
            assertNull(ctx.getStartupFailure());
            assertTrue(ctx.getBeansOfType(RedlockObservations.class).isEmpty(), "no ObservationRegistry, no observations");
            assertTrue(ctx.containsBean("redlockLockedAdvisor"), "@Locked is on with redlock-spring present");
        });
        runner().withBean(ObservationRegistry.class, ObservationRegistry::create).run(ctx -> {
            assertNull(ctx.getStartupFailure());
            assertNotNull(ctx.getBean(RedlockObservations.class));
        });
        runner().withBean(ObservationRegistry.class, ObservationRegistry::create)
                .withPropertyValues("redlock.observations.enabled=false")
                .run(ctx -> assertTrue(ctx.getBeansOfType(RedlockObservations.class).isEmpty()));
        runner().withPropertyValues("redlock.max-hold=1m").run(ctx ->
                assertEquals(Duration.ofMinutes(1), ctx.getBean(Redlock.class).config().maxHold()));
    }

    /** A health indicator's result read without this line's types (they differ between Boot 3 and 4). */
    record Health(String status, Map<?, ?> details) {
        static Health of(Object indicator) throws Exception {
            Object health = indicator.getClass().getMethod("health").invoke(indicator);
            Object status = health.getClass().getMethod("getStatus").invoke(health);
            String code = (String) status.getClass().getMethod("getCode").invoke(status);
            return new Health(code, (Map<?, ?>) health.getClass().getMethod("getDetails").invoke(health));
        }
    }
}
