package dev.redlock.sim;

import java.util.ArrayList;
import java.util.List;
import org.luaj.vm2.LuaString;

/**
 * One node's replication state: its master (the link and the address it was told), its replicas' links, its
 * replication ids and offset; full syncs, the stream of {@link Effect}s to replicas and to the node's AOF,
 * promotion. Not thread-safe.
 */
final class Replication {
    static final String ZERO_ID = "0000000000000000000000000000000000000000";

    private final SimNode node;
    final List<ReplicationLink> replicas = new ArrayList<>();
    ReplicationLink upstream;
    String upstreamAddress;
    long defaultLagNanos;
    String replid;
    String replid2 = ZERO_ID;
    long offset;
    long secondOffset = -1;

    Replication(SimNode node) {
        this.node = node;
    }

    /** A new process: new ids, offset 0; it syncs again from its master, and its replicas from it. */
    void restarted(String newReplid) {
        replid = newReplid;
        replid2 = ZERO_ID;
        offset = 0;
        secondOffset = -1;
        if (upstream != null) syncFrom(upstream);
        for (ReplicationLink r : replicas) r.replica.replication().syncFrom(r);
    }

    /** The process died: its replicas' links are down until it is back. */
    void died() {
        for (ReplicationLink r : replicas) r.broken();
    }

    void replicaOf(String address, SimNode master) {
        detach();
        upstreamAddress = address;
        if (master != null) {
            upstream = new ReplicationLink(master, node, defaultLagNanos);
            master.replication().replicas.add(upstream);
            if (node.isRunning()) syncFrom(upstream);
        }
    }

    void promote(String newReplid) {
        detach();
        replid2 = replid;
        secondOffset = offset + 1;
        replid = newReplid;
    }

    private void detach() {
        if (upstream != null) upstream.master.replication().replicas.remove(upstream);
        upstream = null;
        upstreamAddress = null;
    }

    /** A full sync: this node's data becomes a copy of its master's, and its replicas resync from it. */
    void syncFrom(ReplicationLink link) {
        SimNode m = link.master;
        if (!m.isRunning() || !node.isRunning()) {
            link.broken();
            return;
        }
        node.data().replace(m.data().keyspace().copy());
        replid = m.replication().replid;
        replid2 = ZERO_ID;
        offset = m.replication().offset;
        node.disk().rewrite(node.data().keyspace());
        link.resynced();
        for (ReplicationLink r : replicas) r.replica.replication().syncFrom(r);
    }

    /** A change from the master's stream: applied, logged, passed on to this node's own replicas. */
    void applyReplicated(Effect e) {
        node.data().keyspace().apply(e);
        offset++;
        node.disk().append(e);
        for (ReplicationLink r : replicas) r.send(e);
    }

    /** A change of this node's data: to its AOF and its replicas. */
    void propagate(LuaString key, Entry current) {
        offset++;
        if (replicas.isEmpty() && !node.persistence().aof()) {
            node.disk().changesSinceSave++;
            return;
        }
        Effect e = Effect.of(key, current);
        node.disk().append(e);
        for (ReplicationLink r : replicas) r.send(e);
    }

    void propagateFlush() {
        offset++;
        node.disk().append(Effect.FLUSH);
        for (ReplicationLink r : replicas) r.send(Effect.FLUSH);
    }
}
