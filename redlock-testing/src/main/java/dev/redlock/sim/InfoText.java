package dev.redlock.sim;

import java.util.List;
import java.util.Locale;

/**
 * The text of {@code INFO}: the sections and fields the library, its doctor and its scripts read (server,
 * clients, memory, persistence, stats, replication, cluster, keyspace), with the node's current values. Fields the
 * model has no notion of are left out, not faked.
 */
final class InfoText {
    private static final List<String> DEFAULT = List.of("server", "clients", "memory", "persistence", "stats",
            "replication", "cpu", "cluster", "keyspace");

    private InfoText() {}

    static String render(SimNode n, List<String> sections) {
        StringBuilder b = new StringBuilder(512);
        if (sections.isEmpty() || sections.contains("default") || sections.contains("all") || sections.contains("everything")) {
            sections = DEFAULT;
        }
        for (String s : sections) {
            int before = b.length();
            if (before > 0) b.append("\r\n");
            int header = b.length();
            section(n, s, b);
            if (b.length() == header) b.setLength(before);
        }
        return b.toString();
    }

    private static void section(SimNode n, String s, StringBuilder b) {
        switch (s.toLowerCase(Locale.ROOT)) {
            case "server" -> {
                long up = n.uptimeSeconds();
                b.append("# Server\r\n");
                line(b, "redis_version", n.version());
                if (n.valkeyVersion() != null) {
                    line(b, "server_name", "valkey");
                    line(b, "valkey_version", n.valkeyVersion());
                }
                line(b, "redis_mode", "standalone");
                line(b, "os", "Linux (simulated)");
                line(b, "arch_bits", "64");
                line(b, "process_id", Integer.toString(n.pid()));
                line(b, "run_id", n.runId());
                line(b, "tcp_port", Integer.toString(n.port()));
                line(b, "server_time_usec", Long.toString(n.clock().micros()));
                line(b, "uptime_in_seconds", Long.toString(up));
                line(b, "uptime_in_days", Long.toString(up / 86400));
                line(b, "hz", "10");
            }
            case "clients" -> {
                b.append("# Clients\r\n");
                line(b, "blocked_clients", "0");
            }
            case "memory" -> {
                long used = n.data().usedMemory();
                b.append("# Memory\r\n");
                line(b, "used_memory", Long.toString(used));
                line(b, "used_memory_human", human(used));
                line(b, "maxmemory", Long.toString(n.maxmemory()));
                line(b, "maxmemory_human", human(n.maxmemory()));
                line(b, "maxmemory_policy", n.maxmemoryPolicy());
            }
            case "persistence" -> {
                b.append("# Persistence\r\n");
                line(b, "loading", "0");
                line(b, "rdb_changes_since_last_save", Long.toString(n.disk().changesSinceSave));
                line(b, "rdb_last_save_time", Long.toString(n.disk().lastSaveMs() / 1000));
                line(b, "aof_enabled", n.persistence().aof() ? "1" : "0");
            }
            case "stats" -> {
                b.append("# Stats\r\n");
                line(b, "total_commands_processed", Long.toString(n.commandsProcessed()));
                line(b, "expired_keys", Long.toString(n.data().expiredKeys));
                line(b, "evicted_keys", Long.toString(n.data().evictedKeys));
            }
            case "replication" -> replication(n, b);
            case "cpu" -> {
                b.append("# CPU\r\n");
                line(b, "used_cpu_sys", "0.000000");
                line(b, "used_cpu_user", "0.000000");
            }
            case "cluster" -> {
                b.append("# Cluster\r\n");
                line(b, "cluster_enabled", "0");
            }
            case "keyspace" -> {
                b.append("# Keyspace\r\n");
                int keys = 0, expires = 0;
                for (var e : n.data().keyspace().entries()) {
                    keys++;
                    if (e.getValue().expireAtMs >= 0) expires++;
                }
                if (keys > 0) b.append("db0:keys=").append(keys).append(",expires=").append(expires).append(",avg_ttl=0\r\n");
            }
            default -> {
                // an unknown section: nothing, as Redis answers
            }
        }
    }

    private static void replication(SimNode n, StringBuilder b) {
        b.append("# Replication\r\n");
        if (n.isReplica()) {
            String addr = n.upstreamAddress();
            int colon = addr.lastIndexOf(':');
            ReplicationLink up = n.upstream();
            line(b, "role", "slave");
            line(b, "master_host", addr.substring(0, colon));
            line(b, "master_port", addr.substring(colon + 1));
            line(b, "master_link_status", up != null && up.up() ? "up" : "down");
            line(b, "slave_repl_offset", Long.toString(n.replOffset()));
            line(b, "slave_read_only", n.replicaReadOnly() ? "1" : "0");
        } else {
            line(b, "role", "master");
        }
        int connected = 0;
        StringBuilder slaves = new StringBuilder();
        for (ReplicationLink r : n.replicaLinks()) {
            if (!r.replica.isRunning() || !r.synced) continue;
            slaves.append("slave").append(connected++).append(":ip=").append(r.replica.host()).append(",port=")
                    .append(r.replica.port()).append(",state=online,offset=").append(r.replica.replOffset()).append(",lag=0\r\n");
        }
        line(b, "connected_slaves", Integer.toString(connected));
        b.append(slaves);
        line(b, "master_replid", n.replicationId());
        line(b, "master_replid2", n.replid2());
        line(b, "master_repl_offset", Long.toString(n.replOffset()));
        line(b, "second_repl_offset", Long.toString(n.secondReplOffset()));
    }

    private static void line(StringBuilder b, String k, String v) {
        b.append(k).append(':').append(v).append("\r\n");
    }

    static String human(long bytes) {
        if (bytes < 1024) return bytes + "B";
        String[] units = {"K", "M", "G", "T"};
        double v = bytes;
        int u = -1;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return String.format(Locale.ROOT, "%.2f%s", v, units[u]);
    }
}
