package dev.redlock.examples;

import dev.redlock.Lease;
import dev.redlock.LockUnavailableException;
import dev.redlock.Redlock;
import dev.redlock.RedlockConfig;
import dev.redlock.testkit.RedisBinary;
import dev.redlock.testkit.RedisCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;

/**
 * Starts 5 real redis-server processes, runs a few clients (each with its own {@link Redlock}) that contend for one
 * resource, and prints who held the lock, when, and with which fencing token. Ends by checking that no two
 * holds overlapped and that tokens strictly increased.
 */
public final class ContendingClientsDemo {
    private ContendingClientsDemo() {}

    record Hold(String client, long token, long fromNanos, long toNanos) {}

    public static void main(String[] args) throws Exception {
        int clients = args.length > 0 ? Integer.parseInt(args[0]) : 4;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        System.out.println("redis-server: " + RedisBinary.path() + " (" + RedisBinary.origin() + ")");
        try (RedisCluster cluster = RedisCluster.start(5)) {
            RedlockConfig config = RedlockConfig.builder()
                    .nodes(cluster.uris())
                    .retryCount(50).retryDelay(Duration.ofMillis(20)).retryJitter(Duration.ofMillis(15))
                    .build();
            System.out.println("config: " + config);
            try (Redlock admin = Redlock.create(config)) {
                System.out.println("marked " + admin.markNodesFresh() + " brand-new nodes fresh (amnesia guard)");
            }
            List<Hold> holds = run(config, clients, rounds);
            long t0 = holds.stream().mapToLong(Hold::fromNanos).min().orElse(0);
            System.out.printf("%-10s %8s %10s %10s%n", "client", "token", "from(ms)", "to(ms)");
            for (Hold h : holds) {
                System.out.printf("%-10s %8d %10.2f %10.2f%n", h.client(), h.token(),
                        (h.fromNanos() - t0) / 1e6, (h.toNanos() - t0) / 1e6);
            }
            int overlaps = 0;
            boolean increasing = true;
            for (int i = 1; i < holds.size(); i++) {
                if (holds.get(i).fromNanos() < holds.get(i - 1).toNanos()) overlaps++;
                if (holds.get(i).token() <= holds.get(i - 1).token()) increasing = false;
            }
            System.out.println(holds.size() + " holds, " + overlaps + " overlaps, tokens strictly increasing: " + increasing);
            if (overlaps > 0 || !increasing) System.exit(1);
        }
    }

    static List<Hold> run(RedlockConfig config, int clients, int rounds) throws InterruptedException {
        ConcurrentLinkedQueue<Hold> holds = new ConcurrentLinkedQueue<>();
        CountDownLatch done = new CountDownLatch(clients);
        List<Thread> threads = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            String name = "client-" + (char) ('a' + c);
            Thread t = new Thread(() -> {
                try (Redlock redlock = Redlock.create(config)) {
                    for (int i = 0; i < rounds; i++) {
                        try (Lease lease = redlock.acquire("demo:report", Duration.ofSeconds(2))) {
                            long from = System.nanoTime();
                            Thread.sleep(5);          // the protected work
                            long to = System.nanoTime();
                            holds.add(new Hold(name, lease.fencingToken(), from, to));
                        } catch (LockUnavailableException e) {
                            System.out.println(name + ": " + e.getMessage());
                        }
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    done.countDown();
                }
            }, name);
            threads.add(t);
            t.start();
        }
        done.await();
        List<Hold> sorted = new ArrayList<>(holds);
        sorted.sort((a, b) -> Long.compare(a.fromNanos(), b.fromNanos()));
        return sorted;
    }
}
