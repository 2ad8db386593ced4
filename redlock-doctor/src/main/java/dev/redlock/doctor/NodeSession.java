package dev.redlock.doctor;

import dev.redlock.internal.Diagnostics;
import dev.redlock.internal.Failures;
import dev.redlock.internal.resp.ConnectionCheck;
import dev.redlock.internal.resp.RespClient;
import dev.redlock.internal.resp.RespEndpoint;
import io.netty.channel.EventLoop;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The doctor's connection to one node, over the library's own client ({@link RespClient}: the same URI, TLS, AUTH
 * and SELECT semantics as a {@code Redlock}): connect, read the facts, probe permissions, sample round trips. Each
 * step is called by one thread at a time; {@link #probes} and {@link #timeouts} may be read by another; the
 * probes' answers are recorded on the client's I/O thread ({@link #samples} under its own lock).
 */
final class NodeSession implements AutoCloseable {
    /** CONFIG GET names the report reads (one per call: several names in one call need 7.0). */
    private static final List<String> CONFIG_NAMES = List.of("maxmemory", "maxmemory-policy", "replica-read-only",
            "save", "appendonly", "appendfsync");

    final String node;
    final String uri;
    private final RespClient client;
    private final Duration callTimeout;

    NodeReport.Reach reach = NodeReport.Reach.UNREACHABLE;
    String error;
    Map<String, String> info = Map.of();
    final Map<String, String> config = new HashMap<>();
    String configError;
    String user;
    List<CommandCheck> commands = List.of();
    MarkerState marker;
    private final List<Sample> samples = new ArrayList<>();
    final AtomicLong probes = new AtomicLong();
    final AtomicLong timeouts = new AtomicLong();
    final AtomicLong errors = new AtomicLong();
    volatile String lastError;

    NodeSession(RespEndpoint endpoint, EventLoop loop, Duration callTimeout) {
        this.node = (endpoint.host().contains(":") ? "[" + endpoint.host() + "]" : endpoint.host()) + ":" + endpoint.port();
        this.uri = endpoint.name();
        this.client = RespClient.create(endpoint, loop, ConnectionCheck.NONE);
        this.callTimeout = callTimeout;
    }

    /** Connects (one attempt: TCP, TLS, AUTH, SELECT, {@code INFO server}) and sets {@link #reach}. */
    void connect(Duration wait) {
        try {
            client.connect().get(wait.toMillis(), TimeUnit.MILLISECONDS);
            reach = NodeReport.Reach.REACHABLE;
        } catch (TimeoutException e) {
            error = uri + ": no connection within " + wait.toMillis() + " ms";
        } catch (ExecutionException e) {
            error = String.valueOf(Failures.unwrap(e).getMessage());
            if (isAuthFailure(error)) reach = NodeReport.Reach.AUTH_FAILED;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            error = uri + ": interrupted";
        }
        if (reach != NodeReport.Reach.REACHABLE) client.closeAsync();   // no reconnecting in the background
    }

    /** A handshake refused by the server, not by the network: credentials or a denied handshake command. */
    static boolean isAuthFailure(String message) {
        String m = message.toUpperCase(Locale.ROOT);
        return m.contains("WRONGPASS") || m.contains("NOAUTH") || m.contains("NOPERM") || m.contains("INVALID PASSWORD")
                || m.contains("AUTH <PASSWORD> CALLED WITHOUT");
    }

    /** INFO, CONFIG GET, ACL WHOAMI, the permission probes and the marker. */
    void readFacts(String keyPrefix) {
        info = Diagnostics.parseInfo(String.valueOf(call("INFO").value));
        for (String name : CONFIG_NAMES) {
            Reply r = call("CONFIG", "GET", name);
            if (r.failure != null) {
                configError = r.failureText();
                break;
            }
            if (r.value instanceof List<?> l && l.size() >= 2) config.put(name, String.valueOf(l.get(1)));
        }
        Reply who = call("ACL", "WHOAMI");
        user = who.failure == null ? String.valueOf(who.value) : "unknown (ACL WHOAMI: " + who.failureText() + ")";
        String probeId = UUID.randomUUID().toString().substring(0, 8);
        commands = probeCommands(keyPrefix + "__doctor:" + probeId, keyPrefix + "__released:__doctor-" + probeId);
        marker = readMarker(keyPrefix);
    }

    private List<CommandCheck> probeCommands(String key, String channel) {
        List<CommandCheck> out = new ArrayList<>();
        for (Diagnostics.CommandUse use : Diagnostics.commands()) {
            Reply r;
            if (use.command().equals("SUBSCRIBE")) {
                r = subscribeProbe(channel);
            } else {
                Object[] form = Probes.form(use.command(), key, channel);
                if (form == null) {
                    out.add(new CommandCheck(use.command(), use.usedBy(), use.required(), CommandCheck.Status.UNKNOWN,
                            "no harmless probe known for this command"));
                    continue;
                }
                r = call(form);
            }
            CommandCheck.Status status = r.failure == null ? CommandCheck.Status.PERMITTED : Probes.classify(r.failure);
            out.add(new CommandCheck(use.command(), use.usedBy(), use.required(), status,
                    r.failure == null ? "ok" : r.failureText()));
        }
        return out;
    }

    private Reply subscribeProbe(String channel) {
        Consumer<String> ignore = m -> { };
        try {
            client.subscribe(channel, ignore).get(callTimeout.toMillis(), TimeUnit.MILLISECONDS);
            return new Reply("subscribed", null);
        } catch (ExecutionException e) {
            return new Reply(null, e.getCause());
        } catch (TimeoutException e) {
            return new Reply(null, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Reply(null, e);
        } finally {
            client.unsubscribe(channel, ignore);
        }
    }

    private MarkerState readMarker(String keyPrefix) {
        String key = keyPrefix + "__node";
        Reply m = call("HGETALL", key);
        Reply t = call("TIME");
        String runId = info.get("run_id");
        String replId = info.get("master_replid");
        if (m.failure != null || !(m.value instanceof List<?> l) || l.size() % 2 != 0) {
            return new MarkerState(MarkerState.State.UNREADABLE, null, null, -1, -1, -1, -1,
                    "marker " + key + " unreadable: " + (m.failure != null ? m.failureText() : "unexpected reply " + m.value),
                    List.of());
        }
        Map<String, String> h = new HashMap<>();
        for (int i = 0; i < l.size(); i += 2) h.put(String.valueOf(l.get(i)), String.valueOf(l.get(i + 1)));
        long nowMs = -1;
        if (t.failure == null && t.value instanceof List<?> tl && tl.size() == 2) {
            nowMs = Long.parseLong(String.valueOf(tl.get(0))) * 1000 + Long.parseLong(String.valueOf(tl.get(1))) / 1000;
        }
        List<MembershipRecord> records = new ArrayList<>();
        for (Map.Entry<String, String> e : h.entrySet()) {
            if (!e.getKey().startsWith("m:")) continue;
            long until = number(e.getValue());
            String membership = e.getKey().substring(2);
            List<String> descriptions = new ArrayList<>();
            for (String id : membership.split("\\+")) {
                Reply d = call("GET", keyPrefix + "__members:" + id);
                descriptions.add(d.failure == null && d.value != null ? String.valueOf(d.value) : "unknown");
            }
            records.add(new MembershipRecord(membership, nowMs < 0 ? until : until - nowMs, descriptions));
        }
        records.sort(Comparator.comparingLong(MembershipRecord::standsMs).reversed());
        if (!h.containsKey("run") && !h.containsKey("born")) {
            return new MarkerState(MarkerState.State.ABSENT, null, null, -1, -1, -1, -1, "no marker " + key + ": the "
                    + "first acquire starts an identity and the node refuses to grant for restartQuarantine (on "
                    + "brand-new nodes: Redlock.markNodesFresh())", records);
        }
        String run = h.get("run");
        String rid = h.get("rid");
        long born = number(h.get("born"));
        long hw = number(h.get("hw"));
        long q = number(h.get("q"));
        // as the ACQUIRE script: the replication id is the identity (new after every restart and promotion); the run
        // recorded beside it names the process that began the memory
        if (rid == null || !rid.equals(replId) || born < 0) {
            String what = run == null || !run.equals(runId)
                    ? "another server process (run " + abbreviate(run) + ", now " + abbreviate(runId) + "): a restart, "
                    + "restored backup or failover"
                    : "another replication history (rid " + abbreviate(rid) + ", now " + abbreviate(replId) + "): a "
                    + "promotion, or a failback after a resync";
            return new MarkerState(MarkerState.State.OTHER_IDENTITY, run, rid, born, hw, q, -1, "marker written by "
                    + what + "; the next acquire starts a new identity and quarantines the node for the strictest "
                    + "restartQuarantine stored (" + q + " ms) or asked", records);
        }
        if (born == 0) {
            return new MarkerState(MarkerState.State.FRESH, run, rid, 0, hw, q, -1, "marked fresh by this server "
                    + "process: grants at once, fence floor 0", records);
        }
        long age = nowMs < 0 ? -1 : nowMs - born;
        if (age >= 0 && age < q) {
            return new MarkerState(MarkerState.State.QUARANTINED, run, rid, born, hw, q, age, "identity began " + age
                    + " ms ago (node time): refuses to grant for another " + (q - age) + " ms (stored quarantine "
                    + q + " ms)", records);
        }
        return new MarkerState(MarkerState.State.SERVING, run, rid, born, hw, q, age, "identity began "
                + (age < 0 ? "at an unknown time" : age / 1000 + " s ago") + ", past its stored quarantine (" + q
                + " ms): grants", records);
    }

    private static long number(Object o) {
        if (o == null) return -1;
        try {
            return (long) Double.parseDouble(String.valueOf(o));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static String abbreviate(String runId) {
        return runId == null ? "none" : runId.length() > 12 ? runId.substring(0, 12) + "..." : runId;
    }

    /**
     * Sends a {@code TIME} probe every {@code interval} until {@code endNanos}, whatever the replies (as lock calls
     * arrive whenever they arrive: a node that stalls delays every probe sent meanwhile, and the tail shows it).
     * A probe answered after {@code probeTimeout}, or not answered within it after the window ended, counts as a
     * timeout; a late answer still counts in the round trips (it is the slowest there was).
     */
    void sample(long endNanos, Duration interval, Duration probeTimeout) {
        long step = interval.toNanos();
        long limit = probeTimeout.toNanos();
        ArrayDeque<CompletableFuture<Object>> pending = new ArrayDeque<>();
        long next = System.nanoTime();
        while (System.nanoTime() < endNanos && !Thread.currentThread().isInterrupted()) {
            long wallBefore = wallMicros();
            long sent = System.nanoTime();
            CompletableFuture<Object> f = client.command("TIME");
            probes.incrementAndGet();
            f.whenComplete((reply, e) -> answered(sent, wallBefore, reply, e, limit));
            pending.add(f);
            while (!pending.isEmpty() && pending.peek().isDone()) pending.poll();
            next = Math.max(next + step, System.nanoTime() - step);   // never a burst to catch up after a pause
            long wait = Math.min(next, endNanos) - System.nanoTime();
            if (wait > 0) {
                try {
                    TimeUnit.NANOSECONDS.sleep(wait);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
        long deadline = System.nanoTime() + limit;
        for (CompletableFuture<Object> f : pending) {
            try {
                f.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                timeouts.incrementAndGet();                // unanswered: counted once, never a sample
                f.cancel(false);
            } catch (ExecutionException e) {
                // counted as an error when it failed
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** The answered probes so far, in the order they were sent. */
    List<Sample> samples() {
        synchronized (samples) {
            List<Sample> copy = new ArrayList<>(samples);
            copy.sort(Comparator.comparingLong(Sample::sentNanos));
            return copy;
        }
    }

    /** One probe's outcome, on the client's I/O thread. */
    private void answered(long sent, long wallBefore, Object reply, Throwable e, long limit) {
        long answered = System.nanoTime();
        long wallAfter = wallMicros();
        if (e != null) {
            if (e instanceof CancellationException) return;   // given up at the end of the window
            errors.incrementAndGet();
            lastError = String.valueOf(Failures.unwrap(e).getMessage());
            return;
        }
        if (answered - sent > limit) timeouts.incrementAndGet();
        if (reply instanceof List<?> l && l.size() == 2) {
            long nodeUs = Long.parseLong(String.valueOf(l.get(0))) * 1_000_000L + Long.parseLong(String.valueOf(l.get(1)));
            synchronized (samples) {
                samples.add(new Sample(sent, answered, wallBefore, wallAfter, nodeUs));
            }
        }
    }

    static long wallMicros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1000;
    }

    private Reply call(Object... args) {
        CompletableFuture<Object> f = client.command(args);
        try {
            return new Reply(f.get(callTimeout.toMillis(), TimeUnit.MILLISECONDS), null);
        } catch (ExecutionException e) {
            return new Reply(null, e.getCause());
        } catch (TimeoutException e) {
            return new Reply(null, new TimeoutException("no reply within " + callTimeout.toMillis() + " ms"));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Reply(null, e);
        }
    }

    /** A command's reply or failure. */
    private record Reply(Object value, Throwable failure) {
        String failureText() {
            Throwable t = Failures.unwrap(failure);
            return t.getMessage() != null ? t.getMessage() : t.getClass().getSimpleName();
        }
    }

    @Override
    public void close() {
        client.close();
    }
}
