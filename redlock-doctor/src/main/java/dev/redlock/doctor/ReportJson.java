package dev.redlock.doctor;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import java.time.Duration;
import java.util.Map;

/** {@link DoctorReport#toJson()}: durations in milliseconds (fractional), unknown values as null. */
final class ReportJson {
    private ReportJson() {}

    static String render(DoctorReport r) {
        JsonObject root = new JsonObject();
        root.addProperty("startedAt", r.startedAt().toString());
        root.add("durationMs", ms(r.duration()));
        root.add("intervalMs", ms(r.interval()));
        root.add("maxTtlMs", ms(r.maxTtl()));
        root.addProperty("keyPrefix", r.keyPrefix());
        JsonArray nodes = new JsonArray();
        for (NodeReport n : r.nodes()) nodes.add(node(n));
        root.add("nodes", nodes);
        root.add("recommendation", r.recommendation().map(ReportJson::recommendation).orElse(null));
        JsonObject verdict = new JsonObject();
        verdict.addProperty("exitCode", r.exitCode());
        JsonArray failures = new JsonArray();
        r.failures().forEach(failures::add);
        verdict.add("failures", failures);
        root.add("verdict", verdict);
        return new GsonBuilder().setPrettyPrinting().serializeNulls().disableHtmlEscaping().create().toJson(root) + "\n";
    }

    private static JsonObject node(NodeReport n) {
        JsonObject o = new JsonObject();
        o.addProperty("node", n.node());
        o.addProperty("uri", n.uri());
        o.addProperty("reach", n.reach().name());
        o.addProperty("error", n.error());
        o.addProperty("fails", n.fails());
        o.addProperty("version", n.version());
        o.addProperty("server", n.server() == null ? null : n.server().description());
        o.addProperty("serverTested", n.server() == null ? null : n.server().tested());
        o.addProperty("runId", n.runId());
        o.addProperty("user", n.user());
        o.addProperty("role", n.role());
        o.addProperty("persistence", n.persistence());
        o.addProperty("memory", n.memory());
        JsonArray commands = new JsonArray();
        for (CommandCheck c : n.commands()) {
            JsonObject j = new JsonObject();
            j.addProperty("command", c.command());
            j.addProperty("required", c.required());
            j.addProperty("status", c.status().name());
            j.addProperty("reply", c.reply());
            j.addProperty("usedBy", c.usedBy());
            commands.add(j);
        }
        o.add("commands", commands);
        if (n.marker() != null) {
            MarkerState m = n.marker();
            JsonObject j = new JsonObject();
            j.addProperty("state", m.state().name());
            j.addProperty("run", m.runId());
            j.addProperty("rid", m.replicationId());
            j.addProperty("bornMs", m.bornMs());
            j.addProperty("highWater", m.highWater());
            j.addProperty("quarantineMs", m.quarantineMs());
            j.addProperty("memoryAgeMs", m.memoryAgeMs());
            j.addProperty("detail", m.detail());
            JsonArray records = new JsonArray();
            for (MembershipRecord r : m.records()) {
                JsonObject rj = new JsonObject();
                rj.addProperty("membership", r.membership());
                rj.addProperty("standsMs", r.standsMs());
                JsonArray d = new JsonArray();
                r.descriptions().forEach(d::add);
                rj.add("descriptions", d);
                records.add(rj);
            }
            j.add("records", records);
            o.add("marker", j);
        } else {
            o.add("marker", JsonNull.INSTANCE);
        }
        if (n.roundTrips() != null) {
            RoundTrips rt = n.roundTrips();
            JsonObject j = new JsonObject();
            j.addProperty("probes", rt.probes());
            j.add("p50Ms", ms(rt.p50()));
            j.add("p99Ms", ms(rt.p99()));
            j.add("p999Ms", ms(rt.p999()));
            j.add("maxMs", ms(rt.max()));
            j.addProperty("timeouts", rt.timeouts());
            j.addProperty("errors", rt.errors());
            j.addProperty("lastError", rt.lastError());
            o.add("roundTrips", j);
        } else {
            o.add("roundTrips", JsonNull.INSTANCE);
        }
        if (n.clock() != null) {
            ClockMeasure c = n.clock();
            JsonObject j = new JsonObject();
            j.add("offsetFromHostMs", ms(c.offsetFromHost()));
            j.add("offsetUncertaintyMs", ms(c.offsetUncertainty()));
            j.add("offsetFromNodesMs", c.offsetFromNodes() == null ? JsonNull.INSTANCE : ms(c.offsetFromNodes()));
            j.add("driftPpm", c.driftKnown() ? new JsonPrimitive(round(c.driftPpm())) : JsonNull.INSTANCE);
            j.add("driftUncertaintyPpm", c.driftKnown() ? new JsonPrimitive(round(c.driftUncertaintyPpm())) : JsonNull.INSTANCE);
            j.add("driftBaseMs", ms(c.driftBase()));
            o.add("clock", j);
        } else {
            o.add("clock", JsonNull.INSTANCE);
        }
        JsonArray findings = new JsonArray();
        for (Finding f : n.findings()) {
            JsonObject j = new JsonObject();
            j.addProperty("check", f.check());
            j.addProperty("severity", f.severity().name());
            j.addProperty("message", f.message());
            findings.add(j);
        }
        o.add("findings", findings);
        return o;
    }

    private static JsonObject recommendation(Recommendation rec) {
        JsonObject o = new JsonObject();
        o.addProperty("nodes", rec.nodes());
        o.addProperty("quorum", rec.quorum());
        o.addProperty("failuresTolerated", rec.failuresTolerated());
        o.addProperty("driftFactor", rec.driftFactor());
        o.add("fixedDriftMs", ms(rec.fixedDrift()));
        o.add("nodeTimeoutMs", ms(rec.nodeTimeout()));
        o.add("minTtlMs", ms(rec.minTtl()));
        o.add("restartQuarantineMs", ms(rec.restartQuarantine()));
        JsonObject reasons = new JsonObject();
        for (Map.Entry<String, String> e : rec.reasons().entrySet()) reasons.addProperty(e.getKey(), e.getValue());
        o.add("reasons", reasons);
        return o;
    }

    private static JsonPrimitive ms(Duration d) {
        return new JsonPrimitive(round(d.toNanos() / 1e6));
    }

    private static double round(double v) {
        return Math.round(v * 1000) / 1000.0;
    }
}
