package dev.redlock.shedlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.Redlock;
import dev.redlock.RedlockConfig;
import dev.redlock.testing.RedisNodes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.Collectors;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.spring.annotation.EnableSchedulerLock;
import net.javacrumbs.shedlock.spring.annotation.SchedulerLock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

/**
 * Three Spring application instances (three contexts, each with its own {@link Redlock} and provider, as three pods
 * would have) run the same {@code @Scheduled} cron job every second under {@code @SchedulerLock}: every tick runs on
 * exactly one instance, and the runs' fencing tokens strictly increase.
 */
class SchedulerLockIT {
    @RegisterExtension
    static final RedisNodes REDIS = new RedisNodes(3);

    /** Every run of the job, by any instance: (second it ran in, instance, fencing token). */
    record Run(long second, String instance, long token) {}

    static final ConcurrentLinkedQueue<Run> RUNS = new ConcurrentLinkedQueue<>();
    static RedlockConfig config;

    /** One application instance. */
    @Configuration
    @EnableScheduling
    @EnableSchedulerLock(defaultLockAtMostFor = "PT10S")
    static class App {
        @Bean(destroyMethod = "close")
        Redlock redlock() {
            return Redlock.create(config);
        }

        @Bean
        LockProvider lockProvider(Redlock redlock) {
            return new RedlockLockProvider(redlock);
        }

        @Bean
        ReportJob reportJob() {
            return new ReportJob();
        }
    }

    /** The job: runs at the start of every second on every instance; ShedLock lets one through per tick. */
    static class ReportJob {
        @Scheduled(cron = "* * * * * *")
        @SchedulerLock(name = "report", lockAtLeastFor = "PT0.5S")
        public void run() {
            String instance = Thread.currentThread().getName().split("@")[0];
            long token = RedlockLockProvider.currentFencingToken().orElseThrow();
            RUNS.add(new Run(System.currentTimeMillis() / 1000, instance, token));
        }
    }

    @Test
    void eachTickRunsOnExactlyOneInstanceWithIncreasingTokens() throws Exception {
        config = REDIS.config().build();
        RUNS.clear();
        List<AnnotationConfigApplicationContext> apps = new ArrayList<>();
        try {
            for (String name : List.of("pod-a", "pod-b", "pod-c")) {
                AnnotationConfigApplicationContext ctx = new AnnotationConfigApplicationContext();
                ctx.registerBean("taskScheduler", ThreadPoolTaskScheduler.class,
                        () -> {
                            var scheduler = new ThreadPoolTaskScheduler();
                            scheduler.setThreadNamePrefix(name + "@");
                            return scheduler;
                        });
                ctx.register(App.class);
                ctx.refresh();
                apps.add(ctx);
            }
            long until = System.currentTimeMillis() + 4_200;
            while (System.currentTimeMillis() < until) Thread.sleep(50);
        } finally {
            for (AnnotationConfigApplicationContext ctx : apps) ctx.close();
        }

        List<Run> runs = List.copyOf(RUNS);
        Map<Long, List<Run>> bySecond = runs.stream()
                .collect(Collectors.groupingBy(Run::second, TreeMap::new, Collectors.toList()));
        System.out.println("runs by second: " + bySecond);
        assertTrue(bySecond.size() >= 3, "the job ran on at least 3 ticks: " + bySecond);
        bySecond.forEach((second, inSecond) -> assertEquals(1, inSecond.size(), "tick " + second + " ran " + inSecond));
        for (int i = 1; i < runs.size(); i++) {
            assertTrue(runs.get(i).token() > runs.get(i - 1).token(), "tokens strictly increase: " + runs);
        }
    }
}
