package dev.redlock.chaos.scenario;

import dev.redlock.testkit.RedisProcess;

/** Memory pressure on the nodes, for the eviction scenarios (d4a, d4b). */
final class Eviction {
    private Eviction() {}

    /** Every node: volatile-lru with maxmemory a little above what it uses now. */
    static void evictingNodes(ScenarioContext ctx) {
        for (RedisProcess n : ctx.cluster().nodes()) {
            long used = Long.parseLong(n.info("memory", "used_memory"));
            n.command("CONFIG", "SET", "maxmemory-policy", "volatile-lru");
            n.command("CONFIG", "SET", "maxmemory", Long.toString(used + 4 * 1024 * 1024));
        }
        ctx.history().note("every node: maxmemory-policy volatile-lru, maxmemory = used + 4 MB");
    }

    /** SETs 100 kB values without a TTL on {@code node} until {@code key} is evicted (or OOM), then deletes them. */
    static boolean fillUntilEvicted(RedisProcess node, String key) {
        String value = "x".repeat(100 * 1024);
        int i = 0;
        try {
            while (i < 400 && node.command("EXISTS", key).equals("1")) {
                String r = node.command("SET", "fill:" + i, value);
                i++;
                if (r.startsWith("ERR:")) break;   // OOM: nothing with a TTL was left to evict
            }
            return node.command("EXISTS", key).equals("0");
        } finally {
            for (int k = 0; k < i; k++) node.command("DEL", "fill:" + k);
        }
    }
}
