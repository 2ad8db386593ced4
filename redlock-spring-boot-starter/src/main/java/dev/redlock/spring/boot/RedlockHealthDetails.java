package dev.redlock.spring.boot;

import dev.redlock.RedlockHealth;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The details both Boot lines' health indicators report, from one {@link RedlockHealth}: the quorum, how many nodes
 * are up, the preflight mode, and per node ({@code host:port}) its status, check time, findings and error.
 */
final class RedlockHealthDetails {
    private RedlockHealthDetails() {}

    static Map<String, Object> of(RedlockHealth health) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("quorum", health.quorum());
        out.put("nodesUp", health.up());
        out.put("preflight", health.preflight().name());
        Map<String, Object> nodes = new LinkedHashMap<>();
        for (RedlockHealth.Node n : health.nodes()) {
            Map<String, Object> node = new LinkedHashMap<>();
            node.put("status", n.status().name());
            node.put("elapsedMs", n.elapsed().toMillis());
            if (!n.findings().isEmpty()) node.put("findings", n.findings());
            if (!n.error().isEmpty()) node.put("error", n.error());
            nodes.put(n.address(), node);
        }
        out.put("nodes", nodes);
        return out;
    }
}
