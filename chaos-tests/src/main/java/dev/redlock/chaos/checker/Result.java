package dev.redlock.chaos.checker;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a {@link Checker} concluded. {@code anomalies} are the findings; {@code metrics} are numbers the report shows
 * (counts, rates, durations in ms); {@code parts} are the results of a composite's members.
 */
public record Result(String checker, Validity validity, List<Anomaly> anomalies, Map<String, Double> metrics,
                     List<Result> parts) {

    public Result {
        anomalies = List.copyOf(anomalies);
        metrics = Collections.unmodifiableMap(new LinkedHashMap<>(metrics));
        parts = List.copyOf(parts);
    }

    public static Result of(String checker, Validity validity, List<Anomaly> anomalies, Map<String, Double> metrics) {
        return new Result(checker, validity, anomalies, metrics, List.of());
    }

    /** A checker that threw: never a pass. */
    public static Result crashed(String checker, Throwable t) {
        return new Result(checker, Validity.UNKNOWN,
                List.of(new Anomaly("checker-crashed", checker + " threw " + t, 0, 0, List.of())), Map.of(), List.of());
    }

    public boolean isValid() {
        return validity == Validity.VALID;
    }

    /** Anomalies of one kind, searched through parts too. */
    public List<Anomaly> anomalies(String kind) {
        List<Anomaly> out = new ArrayList<>();
        collect(kind, out);
        return out;
    }

    private void collect(String kind, List<Anomaly> out) {
        if (parts.isEmpty()) {
            for (Anomaly a : anomalies) if (a.kind().equals(kind)) out.add(a);
        } else {
            for (Result p : parts) p.collect(kind, out);
        }
    }

    /** A metric by name, searched through parts too; {@code NaN} when absent. */
    public double metric(String name) {
        Double v = metrics.get(name);
        if (v != null) return v;
        for (Result p : parts) {
            double d = p.metric(name);
            if (!Double.isNaN(d)) return d;
        }
        return Double.NaN;
    }

    /** A part by checker name, or this result if it has that name; null when absent. */
    public Result part(String name) {
        if (checker.equals(name)) return this;
        for (Result p : parts) {
            Result r = p.part(name);
            if (r != null) return r;
        }
        return null;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(checker).append('=').append(validity);
        if (!parts.isEmpty()) {
            sb.append(" {");
            for (int i = 0; i < parts.size(); i++) sb.append(i == 0 ? "" : ", ").append(parts.get(i));
            sb.append('}');
        } else if (!anomalies.isEmpty()) {
            sb.append(" (").append(anomalies.size()).append(" anomalies)");
        }
        return sb.toString();
    }
}
