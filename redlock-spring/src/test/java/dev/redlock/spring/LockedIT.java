package dev.redlock.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.Lease;
import dev.redlock.LeaseLostException;
import dev.redlock.LockUnavailableException;
import dev.redlock.Redlock;
import dev.redlock.testing.RedisNodes;
import dev.redlock.testkit.Sleep;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.BeanCreationException;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.annotation.EnableTransactionManagement;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * {@link Locked} in a plain Spring context on real nodes, with a real JDBC transaction (H2, DataSourceTransactionManager):
 * the SpEL key, the lease in {@link LockedContext}, release after commit or rollback, a lost lease rolling the
 * transaction back, maxWait, and bad annotations failing the start.
 */
class LockedIT {
    @RegisterExtension
    static final RedisNodes REDIS = new RedisNodes(3);

    private static AnnotationConfigApplicationContext context;
    private static Redlock other;

    /** What the test checks from inside the transaction, at commit time. */
    static final List<String> SEEN = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void start() {
        context = new AnnotationConfigApplicationContext(App.class);
        other = Redlock.create(REDIS.config().retryCount(0).build());
    }

    @AfterAll
    static void stop() {
        if (other != null) other.close();
        if (context != null) context.close();
    }

    @BeforeEach
    void clear() {
        SEEN.clear();
        context.getBean(JdbcTemplate.class).update("DELETE FROM invoice");
    }

    static boolean heldElsewhere(String resource) {
        return other.tryAcquire(resource, Duration.ofSeconds(1)).map(l -> {
            l.release();
            return false;
        }).orElse(true);
    }

    @Configuration(proxyBeanMethods = false)
    @EnableTransactionManagement
    @Import(LockedConfiguration.class)
    static class App {
        @Bean(destroyMethod = "close")
        Redlock redlock() {
            return Redlock.create(REDIS.config().retryCount(1).maxHold(Duration.ofMillis(1500)).build());
        }

        @Bean
        DataSource dataSource() {
            JdbcDataSource ds = new JdbcDataSource();
            ds.setURL("jdbc:h2:mem:locked;DB_CLOSE_DELAY=-1");
            new JdbcTemplate(ds).execute("CREATE TABLE IF NOT EXISTS invoice (id VARCHAR(64) PRIMARY KEY, fence BIGINT)");
            return ds;
        }

        @Bean
        PlatformTransactionManager transactionManager(DataSource ds) {
            return new DataSourceTransactionManager(ds);
        }

        @Bean
        JdbcTemplate jdbcTemplate(DataSource ds) {
            return new JdbcTemplate(ds);
        }

        @Bean
        Invoices invoices(JdbcTemplate jdbc) {
            return new Invoices(jdbc);
        }

        @Bean
        Billing billing(Invoices invoices) {
            return new Billing(invoices);
        }
    }

    public static class Invoices {
        private final JdbcTemplate jdbc;

        public Invoices(JdbcTemplate jdbc) {
            this.jdbc = jdbc;
        }

        @Locked(resource = "'invoice:' + #id", ttl = "2s")
        public String charge(String id) {
            Lease lease = LockedContext.lease();
            assertTrue(heldElsewhere("invoice:" + id), "the lock is held while the method runs");
            return lease.resource() + "@" + lease.fencingToken();
        }

        /** Both: the lease is taken inside the transaction and given back after it completed. */
        @Locked(resource = "'invoice:' + #p0", ttl = "2s")
        @Transactional
        public void write(String id, long sleepMs) {
            assertTrue(TransactionSynchronizationManager.isActualTransactionActive());
            jdbc.update("INSERT INTO invoice (id, fence) VALUES (?, ?)", id, LockedContext.lease().fencingToken());
            TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                @Override
                public void afterCommit() {
                    SEEN.add("committed while " + (heldElsewhere("invoice:" + id) ? "held" : "free"));
                }
            });
            if (sleepMs > 0) Sleep.millis(sleepMs);
        }

        /** No transaction of its own: called inside Billing's. */
        @Locked(resource = "'invoice:' + #id", ttl = "2s")
        public void insert(String id) {
            jdbc.update("INSERT INTO invoice (id, fence) VALUES (?, ?)", id, LockedContext.lease().fencingToken());
        }

        @Locked(resource = "'busy'", ttl = "2s", maxWait = "300ms")
        public void busy() {
        }

        @Locked(resource = "'busy'", ttl = "2s", maxWait = "0")
        public void busyOneRound() {
        }
    }

    public static class Billing {
        private final Invoices invoices;

        public Billing(Invoices invoices) {
            this.invoices = invoices;
        }

        @Transactional
        public void chargeTwice(String a, String b) {
            invoices.insert(a);
            SEEN.add("after insert " + a + ": " + (heldElsewhere("invoice:" + a) ? "held" : "free"));
            invoices.insert(b);
            TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                @Override
                public void afterCommit() {
                    SEEN.add("committed while " + (heldElsewhere("invoice:" + a) ? "held" : "free"));
                }
            });
        }

        @Locked(resource = "'outer'", ttl = "2s")
        public String nested(String id) {
            Lease outer = LockedContext.lease();
            String inner = invoices.charge(id);               // through the proxy: its own lease meanwhile
            assertTrue(LockedContext.lease() == outer, "the outer lease is current again");
            return outer.resource() + "|" + inner;
        }

        @Transactional
        public void insertThenStall(String id, long sleepMs) {
            invoices.insert(id);
            Sleep.millis(sleepMs);
        }
    }

    private static int rows(String id) {
        return context.getBean(JdbcTemplate.class).queryForObject("SELECT COUNT(*) FROM invoice WHERE id = ?", Integer.class, id);
    }

    @Test
    void locksTheResourceTheSpelExpressionNames() {
        String r = context.getBean(Invoices.class).charge("42");
        assertTrue(r.startsWith("invoice:42@"), r);
        assertFalse(heldElsewhere("invoice:42"), "released when the method returned");
        assertThrows(IllegalStateException.class, LockedContext::lease, "no lease outside a @Locked method");
    }

    @Test
    void aMethodThatIsAlsoTransactionalReleasesAfterTheCommit() {
        context.getBean(Invoices.class).write("7", 0);
        assertEquals(List.of("committed while held"), SEEN);
        assertEquals(1, rows("7"));
        assertFalse(heldElsewhere("invoice:7"), "released after the commit");
    }

    @Test
    void aLockedCallInsideAnEnclosingTransactionKeepsTheLeaseUntilTheCommit() {
        context.getBean(Billing.class).chargeTwice("a1", "b1");
        assertEquals(List.of("after insert a1: held", "committed while held"), SEEN);
        assertEquals(1, rows("a1"));
        assertFalse(heldElsewhere("invoice:a1"));
        assertFalse(heldElsewhere("invoice:b1"));
    }

    @Test
    void aLeaseLostInsideTheMethodsTransactionRollsItBack() {
        // maxHold 1.5 s ends the lease while the method stalls: the method's result is replaced by the loss
        LeaseLostException e = assertThrows(LeaseLostException.class, () -> context.getBean(Invoices.class).write("lost", 2500));
        assertTrue(e.getMessage().contains("maxHold"), e.getMessage());
        assertEquals(0, rows("lost"), "the row written under the lost lease was rolled back");
        assertEquals(List.of(), SEEN, "never committed");
    }

    @Test
    void aLeaseLostBeforeTheEnclosingCommitRollsItBack() {
        LeaseLostException e = assertThrows(LeaseLostException.class,
                () -> context.getBean(Billing.class).insertThenStall("late", 2500));
        assertTrue(e.getMessage().contains("maxHold"), e.getMessage());
        assertEquals(0, rows("late"), "beforeCommit saw the loss: rolled back");
    }

    @Test
    void nestedMethodsSeeTheirOwnLease() {
        String r = context.getBean(Billing.class).nested("9");
        assertTrue(r.startsWith("outer|invoice:9@"), r);
    }

    @Test
    void anUnavailableLockThrowsAfterMaxWait() {
        Lease held = other.acquire("busy", Duration.ofSeconds(5));
        try {
            long start = System.nanoTime();
            LockUnavailableException e = assertThrows(LockUnavailableException.class, () -> context.getBean(Invoices.class).busy());
            assertTrue(System.nanoTime() - start >= Duration.ofMillis(300).toNanos(), "gave up before maxWait");
            assertTrue(e.getMessage().contains("maxWait 300ms"), e.getMessage());
            assertFalse(e.outcomes().isEmpty(), "the last round's outcomes");
            assertInstanceOf(LockUnavailableException.class,
                    assertThrows(LockUnavailableException.class, () -> context.getBean(Invoices.class).busyOneRound()));
        } finally {
            held.release();
        }
        context.getBean(Invoices.class).busy();
    }

    @Test
    void maxWaitKeepsTryingUntilTheHolderReleases() {
        Lease held = other.acquire("busy", Duration.ofSeconds(5));
        CompletableFuture.runAsync(() -> {
            Sleep.millis(150);
            held.release();
        });
        context.getBean(Invoices.class).busy();      // 300 ms of trying outlasts the 150 ms hold
    }

    @Configuration(proxyBeanMethods = false)
    @Import(LockedConfiguration.class)
    static class BadTtl {
        @Bean
        Redlock redlock() {
            return Redlock.create(REDIS.config().build());
        }

        @Bean
        Bad bad() {
            return new Bad();
        }
    }

    public static class Bad {
        @Locked(resource = "'x'", ttl = "soon")
        public void run() {
        }
    }

    @Configuration(proxyBeanMethods = false)
    @Import(LockedConfiguration.class)
    static class AsyncMethod {
        @Bean
        Async async() {
            return new Async();
        }
    }

    public static class Async {
        @Locked(resource = "'x'")
        public CompletableFuture<String> run() {
            return CompletableFuture.completedFuture("x");
        }
    }

    @Test
    void badAnnotationsFailTheStartNamingTheMethod() {
        BeanCreationException ttl = assertThrows(BeanCreationException.class, () -> new AnnotationConfigApplicationContext(BadTtl.class));
        assertTrue(rootMessage(ttl).contains("@Locked on dev.redlock.spring.LockedIT$Bad.run(): ttl must be a duration"),
                rootMessage(ttl));
        BeanCreationException async = assertThrows(BeanCreationException.class,
                () -> new AnnotationConfigApplicationContext(AsyncMethod.class));
        assertTrue(rootMessage(async).contains("withLockAsync"), rootMessage(async));
    }

    private static String rootMessage(Throwable t) {
        while (t.getCause() != null) t = t.getCause();
        return t.getMessage();
    }
}
