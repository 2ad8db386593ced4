package dev.redlock.compat.boot;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The smallest Spring Boot application on redlock-spring-boot-starter: no code of its own, the {@code Redlock} (from
 * {@code redlock.*} properties), the ShedLock provider, the Micrometer meters and the {@code redlock} health
 * indicator come from the starter. Compiled and tested once per Spring Boot line (compat/boot35-app,
 * compat/boot40-app), each with the versions its BOM manages.
 */
@SpringBootApplication
public class LockingApp {
    public static void main(String[] args) {
        SpringApplication.run(LockingApp.class, args);
    }
}
