package dev.redlock.examples.cron;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.redlock.examples.cron.CronLeaderExample.JobRun;
import dev.redlock.examples.cron.CronLeaderExample.Options;
import dev.redlock.examples.cron.CronLeaderExample.Result;
import dev.redlock.examples.cron.CronLeaderExample.SchedulerInstance;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Runs {@link CronLeaderExample} in-process on embedded Redis nodes, briefly, and checks what it did. */
class CronLeaderExampleIT {
    private static final Pattern HEALTH =
            Pattern.compile("\\{\"instanceId\":\"([^\"]+)\",\"leader\":(true|false),\"epoch\":(null|\\d+)}");

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final Map<String, List<String>> health = new HashMap<>();    // phase -> "id leader epoch" answers

    @Test
    void eachTickRunsOnExactlyOneInstanceAndALeaderDeathFailsOver() throws Exception {
        Options options = new Options(List.of(), false, 0, Duration.ofMillis(800), Duration.ofMillis(800));
        Result r = CronLeaderExample.run(options, System.out, this::checkHealth);

        assertTrue(r.problems().isEmpty(), "the example's own checks: " + r.problems());
        // each tick ran on exactly one instance
        Map<Long, List<String>> bySlot = r.runs().stream().collect(Collectors.groupingBy(JobRun::slot,
                Collectors.mapping(JobRun::instanceId, Collectors.toList())));
        bySlot.forEach((slot, who) -> assertEquals(1, who.size(), "tick " + slot + " ran on " + who));
        assertTrue(r.runs().stream().allMatch(JobRun::accepted), "no run was fenced off");
        // failover happened, to another instance, with a greater epoch, within about leaseTtl + renewInterval
        assertNotEquals(r.killed(), r.successor());
        assertTrue(r.successorEpoch() > r.killedEpoch());
        assertTrue(r.failoverMillis() <= CronLeaderExample.LEASE_TTL.plus(CronLeaderExample.RENEW_INTERVAL)
                .plusMillis(500).toMillis(), "failover took " + r.failoverMillis() + " ms");
        assertTrue(r.runs().stream().anyMatch(j -> j.instanceId().equals(r.killed())), "the first leader ran the job");
        assertTrue(r.runs().stream().anyMatch(j -> j.instanceId().equals(r.successor())), "the successor ran the job");
        // epochs strictly increase from term to term, and never go down in tick order
        List<JobRun> terms = r.termsInTickOrder();
        assertTrue(terms.size() >= 2, "terms: " + terms);
        for (int i = 1; i < terms.size(); i++) assertTrue(terms.get(i).epoch() > terms.get(i - 1).epoch(), "terms: " + terms);
        List<JobRun> inTickOrder = new ArrayList<>(r.runs());
        inTickOrder.sort((a, b) -> Long.compare(a.slot(), b.slot()));
        for (int i = 1; i < inTickOrder.size(); i++) {
            assertTrue(inTickOrder.get(i).epoch() >= inTickOrder.get(i - 1).epoch(), "epoch went down: " + inTickOrder);
        }
        // the health endpoint was queried in both phases and named the right leader
        assertEquals(3, health.get("elected").size(), "elected: " + health);
        assertEquals(2, health.get("failover").size(), "failover (one instance is dead): " + health);
        assertTrue(health.get("elected").contains(r.killed() + " true " + r.killedEpoch()), "elected: " + health);
        assertTrue(health.get("failover").contains(r.successor() + " true " + r.successorEpoch()), "failover: " + health);
    }

    /** Queries every instance's /health/leader and checks the JSON against the election's own state. */
    private void checkHealth(String phase, List<SchedulerInstance> instances) throws Exception {
        List<String> answers = new ArrayList<>();
        int leaders = 0;
        for (SchedulerInstance i : instances) {
            HttpRequest get = HttpRequest.newBuilder(i.healthUri()).timeout(Duration.ofSeconds(2)).GET().build();
            if (i.isDead()) {
                assertThrows(IOException.class, () -> http.send(get, HttpResponse.BodyHandlers.ofString()),
                        "a dead instance serves nothing");
                continue;
            }
            OptionalLong before = i.election().currentEpoch();
            HttpResponse<String> resp = http.send(get, HttpResponse.BodyHandlers.ofString());
            OptionalLong after = i.election().currentEpoch();
            assertEquals(200, resp.statusCode());
            assertEquals("application/json", resp.headers().firstValue("Content-Type").orElse(""));
            Matcher m = HEALTH.matcher(resp.body());
            assertTrue(m.matches(), "health JSON: " + resp.body());
            assertEquals(i.id(), m.group(1));
            boolean leader = Boolean.parseBoolean(m.group(2));
            assertEquals(before, after, "leadership changed while querying " + i.id() + " (TTL too short?)");
            assertEquals(before.isPresent(), leader, resp.body());
            assertEquals(before.isPresent() ? Long.toString(before.getAsLong()) : "null", m.group(3), resp.body());
            if (leader) leaders++;
            answers.add(i.id() + " " + leader + " " + m.group(3));
            HttpResponse<String> post = http.send(HttpRequest.newBuilder(i.healthUri())
                    .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(405, post.statusCode());
        }
        assertEquals(1, leaders, phase + ": exactly one instance reports leader: " + answers);
        assertFalse(health.containsKey(phase));
        health.put(phase, answers);
    }
}
