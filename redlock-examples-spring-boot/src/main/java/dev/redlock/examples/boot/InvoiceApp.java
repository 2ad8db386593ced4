package dev.redlock.examples.boot;

import dev.redlock.testkit.RedisCluster;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.javacrumbs.shedlock.spring.annotation.EnableSchedulerLock;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.scheduling.annotation.EnableScheduling;

/**
 * A Spring Boot 4 application on redlock-spring-boot-starter: everything redlock comes from the starter and the
 * {@code redlock.*} properties (see {@code application.properties}). {@link InvoiceController} pays invoices under a
 * lock and fences each write with the lease's token; {@link ReportJob} runs on one instance per tick with
 * ShedLock's {@code @SchedulerLock}; {@code /actuator/health/redlock} reports the nodes, {@code /actuator/prometheus}
 * the meters.
 *
 * <pre>
 * mvn -q -B install -DskipTests &amp;&amp; mvn -q -B exec:java -pl redlock-examples-spring-boot
 * curl -X POST localhost:8080/invoices/42/pay ; curl localhost:8080/actuator/health/redlock
 * </pre>
 * Without {@code redlock.nodes} it starts three embedded redis-server processes (throw-away, so the restart
 * quarantine is off for them).
 */
@SpringBootApplication
@EnableScheduling
@EnableSchedulerLock(defaultLockAtMostFor = "PT10S")
public class InvoiceApp {

    public static void main(String[] args) {
        List<String> all = new ArrayList<>(Arrays.asList(args));
        boolean nodesGiven = all.stream().anyMatch(a -> a.startsWith("--redlock.nodes="))
                || System.getenv("REDLOCK_NODES") != null;
        RedisCluster embedded = null;
        if (!nodesGiven) {
            embedded = RedisCluster.start(3);
            all.add("--redlock.nodes=" + String.join(",", embedded.uris()));
            all.add("--redlock.restart-quarantine=0");
            RedisCluster nodes = embedded;
            Runtime.getRuntime().addShutdownHook(new Thread(nodes::close));
        }
        SpringApplication.run(InvoiceApp.class, all.toArray(String[]::new));
    }
}
