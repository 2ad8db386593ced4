package dev.redlock.chaos.scenario;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The scenarios of the chaos suite table (docs/chaos.md), gathered from their families (each keeps a scenario's
 * definition next to its body: contention, network, amnesia, clock, stall, deployments, watchdog, late grants), with
 * the settings they run with (5 nodes, quorum 3, TTLs of 300-1000 ms, so each runs in seconds). Scenario 4 has three
 * variants: the amnesia guard (4a), AOF {@code appendfsync always} (4b), and a restart delayed past the TTL (4c).
 * Seeds are 0 (a fresh seed per run, printed) unless {@code -Dchaos.seed} is given.
 */
public final class Scenarios {
    private static final List<Scenario> ALL = Stream.of(
                    // the core catalogue (1-14), merged back into catalogue order from the families of the fault
                    // each injects
                    Stream.of(ContentionScripts.all(), NetworkScripts.all(), AmnesiaScripts.all(),
                                    ClockScripts.all(), StallScripts.all())
                            .flatMap(List::stream).sorted(Scenarios::byCatalogueNumber),
                    DeploymentScripts.all().stream(), TopologyScripts.all().stream(), WatchdogScripts.all().stream(),
                    LateGrantScripts.all().stream())
            .flatMap(s -> s).toList();

    private Scenarios() {}

    /** "1" < "2" < ... < "4a" < "4b" < ... < "14": the number, then the variant letter. */
    private static int byCatalogueNumber(Scenario a, Scenario b) {
        Comparator<String> byNumber = Comparator.comparingInt(id -> Integer.parseInt(id.replaceAll("\\D", "")));
        return byNumber.thenComparing(Comparator.naturalOrder()).compare(a.id(), b.id());
    }

    /**
     * Every scenario, in order: the core catalogue (1-14), then deployments d1a..d7, topologies d8a..d11b, watchdog
     * W1..W3, late grants L1.
     */
    public static List<Scenario> all() {
        return ALL;
    }

    /**
     * The scenarios an id names: the one with that id ({@link #byId}), or, for a deployment family without one
     * ("d8"), its variants in order ("d8a", "d8b": the claim and its twin).
     *
     * @throws NoSuchElementException for an unknown id
     */
    public static List<Scenario> select(String id) {
        if (id.startsWith("d") && ALL.stream().noneMatch(s -> s.id().equals(id))) {
            List<Scenario> family = ALL.stream().filter(s -> s.id().matches(Pattern.quote(id) + "[a-z]"))
                    .toList();
            if (!family.isEmpty()) return family;
        }
        return List.of(byId(id));
    }

    /**
     * The soak (not in {@link #all()}): the contention workload under a seeded random mix of faults for
     * {@code duration}; see {@code SoakScripts}.
     */
    public static Scenario soak(Duration duration) {
        return SoakScripts.soak(duration);
    }

    /**
     * A scenario by id ("1".."14", "4a", "4b", "4c", "d1a".."d11b", "W1".."W3", "L1"; "4" is "4a").
     *
     * @throws NoSuchElementException for an unknown id
     */
    public static Scenario byId(String id) {
        String want = id.equals("4") ? "4a" : id;
        return ALL.stream().filter(s -> s.id().equals(want)).findFirst()
                .orElseThrow(() -> new NoSuchElementException("no scenario " + id + "; known: "
                        + ALL.stream().map(Scenario::id).toList()));
    }
}
