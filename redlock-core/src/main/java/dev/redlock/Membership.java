package dev.redlock;

import dev.redlock.internal.RedisUri;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The node list a client runs with, as the nodes record it, so that two clients with different lists (whose quorums
 * can be disjoint: 3 of 5 and 4 of 7 share at most 5 nodes) cannot both hold a lock without noticing.
 *
 * <p>A list's id is the first 12 hex digits of the SHA-1 of its sorted entries: a node's name ({@code ?name=} in its
 * URI) when it has one, else {@code host:port/db} (host in lower case). The order of the list does not matter, the
 * entries do: a node reached by another address and not named is another list. Quorums are not part of it: two majorities of one list always intersect. Every ACQUIRE records the
 * client's membership on the node, in the marker hash, as a field {@code m:<id>} (or {@code m:<id>+<previous id>}
 * for a transition configuration) whose value is the node's time (ms) until which the record stands, at least
 * {@link #windowMs} past the acquire, refreshed by acquires and extensions; a node refuses a client none of whose
 * ids appears in a record it holds that still stands (status 3), and records nothing for it. Two memberships are
 * compatible when they share an id: both need a quorum of that list. The description of a list (its nodes and the
 * client's quorum) is kept under {@code <keyPrefix>__members:<id>} on every node for error messages and the doctor.
 */
final class Membership {
    /** How long a description of a list stays on the nodes after the last client that wrote it was created. */
    static final long DESCRIPTION_TTL_MS = 24 * 60 * 60 * 1000L;

    private final String field;
    private final String id;
    private final String description;
    private final String previousId;
    private final String previousDescription;

    Membership(RedlockConfig cfg) {
        this.id = id(cfg.nodeAddresses());
        this.description = describe(cfg.nodeAddresses(), cfg.quorum());
        if (cfg.previousNodeAddresses().isEmpty()) {
            this.previousId = null;
            this.previousDescription = null;
            this.field = "m:" + id;
        } else {
            this.previousId = id(cfg.previousNodeAddresses());
            this.previousDescription = describe(cfg.previousNodeAddresses(), cfg.previousQuorum());
            this.field = "m:" + id + "+" + previousId;
        }
    }

    /** The marker field this client's record lives in. */
    String field() {
        return field;
    }

    /** The id of this client's (new) node list. */
    String id() {
        return id;
    }

    /** The id of the previous list of a transition configuration, or null. */
    String previousId() {
        return previousId;
    }

    /** {@code "5 nodes (quorum 3): host:port, ..."}. */
    String description() {
        return description;
    }

    /** The description of the previous list, or null. */
    String previousDescription() {
        return previousDescription;
    }

    /** This client's configuration for messages: its list, and the previous list during a transition. */
    String describeSelf() {
        return previousId == null ? "node list " + id + " = " + description
                : "transition configuration: node list " + id + " = " + description + ", previous node list "
                + previousId + " = " + previousDescription;
    }

    /**
     * How long (ms) the record of an acquire with this TTL stands on a node: twice the larger of the TTL and the
     * quarantine, so a record outlives every lease it was written for, extensions included (they refresh it).
     */
    static long windowMs(long ttlMs, long quarantineMs) {
        return 2 * Math.max(ttlMs, quarantineMs);
    }

    /**
     * Writes the description of this client's list(s) on every node (best effort, not waited for), under
     * {@code <keyPrefix>__members:<id>}, for {@link #DESCRIPTION_TTL_MS}.
     */
    void publish(RedlockContext ctx) {
        for (NodeClient n : ctx.nodes()) {
            n.command("SET", ctx.config().keyPrefix() + "__members:" + id, description, "PX", Long.toString(DESCRIPTION_TTL_MS));
            if (previousId != null) {
                n.command("SET", ctx.config().keyPrefix() + "__members:" + previousId, previousDescription, "PX",
                        Long.toString(DESCRIPTION_TTL_MS));
            }
        }
    }

    /**
     * The configuration a node recorded as {@code membership} ({@code id} or {@code id+previous id}), with the node
     * lists whose description it still has; never fails (at most a node timeout).
     */
    CompletableFuture<String> describe(RedlockContext ctx, int node, String membership) {
        String[] ids = membership.split("\\+");
        List<CompletableFuture<String>> parts = new ArrayList<>();
        for (String other : ids) {
            CompletableFuture<String> part = ctx.node(node).command("GET", ctx.config().keyPrefix() + "__members:" + other)
                    .handle((d, e) -> "node list " + other + (d instanceof String text ? " = " + text : ""));
            parts.add(completeOnTimeout(ctx, part, "node list " + other));
        }
        return CompletableFuture.allOf(parts.toArray(CompletableFuture[]::new)).thenApply(x -> {
            String first = parts.get(0).join();
            return parts.size() == 1 ? first : "transition configuration: " + first + ", previous " + parts.get(1).join();
        });
    }

    /**
     * {@code part}, or {@code fallback} after a node timeout on the context's scheduler (not the JDK's own delay
     * thread: a Redlock on injected seams runs its timers on their scheduler, virtual time included).
     */
    private static CompletableFuture<String> completeOnTimeout(RedlockContext ctx, CompletableFuture<String> part,
                                                               String fallback) {
        try {
            ScheduledFuture<?> t = ctx.scheduler().schedule(() -> part.complete(fallback),
                    ctx.config().nodeTimeout().toMillis(), TimeUnit.MILLISECONDS);
            part.whenComplete((x, e) -> t.cancel(false));
        } catch (RejectedExecutionException e) {   // closed: no answer will be waited for
            part.complete(fallback);
        }
        return part;
    }

    /** {@link RedisUri#listId}: the one definition, shared with the doctor. */
    static String id(List<NodeAddress> nodes) {
        return RedisUri.listId(nodes.stream().map(NodeAddress::uri).toList());
    }

    private static String describe(List<NodeAddress> nodes, int quorum) {
        StringBuilder b = new StringBuilder().append(nodes.size()).append(" nodes (quorum ").append(quorum).append("): ");
        for (int i = 0; i < nodes.size(); i++) {
            NodeAddress a = nodes.get(i);
            b.append(i == 0 ? "" : ", ").append(a.name() != null ? a.name() + " (" : "").append(RedlockContext.hostPort(a))
                    .append(a.database() == 0 ? "" : "/" + a.database()).append(a.name() != null ? ")" : "");
        }
        return b.toString();
    }
}
