package dev.redlock.chaos.history;

import com.google.gson.Gson;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A {@link History} as JSON lines, one element per line: a {@code run} header (node count, quorum, measured span,
 * the clients' own node lists), then every event, write, fault window, node sample, owner value, sampler error and
 * note, each a one-key object naming its kind ({@code {"event":{...}}}). Reading gives a history equal element by
 * element to the one written (same {@code seq}, times and order), so every checker decides on it as on the original.
 * Not a format for other tools to depend on yet: fields follow the records in this package.
 */
public final class HistoryJson {
    private static final Gson GSON = new Gson();

    private HistoryJson() {}

    /** Writes {@code h} to {@code out}, one JSON object per line. */
    public static void write(History h, Writer out) throws IOException {
        JsonObject run = new JsonObject();
        run.addProperty("nodes", h.nodes());
        run.addProperty("quorum", h.quorum());
        run.addProperty("startNanos", h.startNanos());
        run.addProperty("endNanos", h.endNanos());
        JsonObject lists = new JsonObject();
        for (Map.Entry<Integer, int[]> e : h.clientLists().entrySet()) {
            lists.add(String.valueOf(e.getKey()), GSON.toJsonTree(e.getValue()));
        }
        run.add("clientLists", lists);
        line(out, "run", run);
        for (Event e : h.events()) line(out, "event", GSON.toJsonTree(e).getAsJsonObject());
        for (Write w : h.writes()) line(out, "write", GSON.toJsonTree(w).getAsJsonObject());
        for (FaultWindow f : h.faults()) line(out, "fault", GSON.toJsonTree(f).getAsJsonObject());
        for (NodeSample s : h.samples()) line(out, "sample", GSON.toJsonTree(s).getAsJsonObject());
        for (Map.Entry<String, String> o : new TreeMap<>(h.ownerValues()).entrySet()) {
            JsonObject v = new JsonObject();
            v.addProperty("lease", o.getKey());
            v.addProperty("value", o.getValue());
            line(out, "owner", v);
        }
        for (String s : h.samplerErrors()) text(out, "samplerError", s);
        for (String n : h.notes()) text(out, "note", n);
    }

    /**
     * Reads a history written by {@link #write}.
     *
     * @throws IllegalArgumentException naming the line, when a line is not one of the kinds above or the header is
     *                                  missing
     */
    public static History read(Reader in) throws IOException {
        BufferedReader r = new BufferedReader(in);
        History h = null;
        List<Event> events = new ArrayList<>();
        List<Write> writes = new ArrayList<>();
        String line;
        int n = 0;
        while ((line = r.readLine()) != null) {
            n++;
            if (line.isBlank()) continue;
            try {
                JsonObject o = JsonParser.parseString(line).getAsJsonObject();
                String kind = o.keySet().iterator().next();
                if (h == null && !kind.equals("run")) throw new IllegalArgumentException("no run header before it");
                switch (kind) {
                    case "run" -> h = header(o.getAsJsonObject("run"));
                    case "event" -> events.add(GSON.fromJson(o.get(kind), Event.class));
                    case "write" -> writes.add(GSON.fromJson(o.get(kind), Write.class));
                    case "fault" -> h.fault(GSON.fromJson(o.get(kind), FaultWindow.class));
                    case "sample" -> h.sample(GSON.fromJson(o.get(kind), NodeSample.class));
                    case "owner" -> h.ownerValue(o.getAsJsonObject(kind).get("lease").getAsString(),
                            o.getAsJsonObject(kind).get("value").getAsString());
                    case "samplerError" -> h.samplerError(o.get(kind).getAsString());
                    case "note" -> h.restoreNote(o.get(kind).getAsString());
                    default -> throw new IllegalArgumentException("unknown kind '" + kind + "'");
                }
            } catch (JsonParseException | IllegalStateException | IllegalArgumentException | NullPointerException e) {
                throw new IllegalArgumentException("history line " + n + ": " + e.getMessage(), e);
            }
        }
        if (h == null) throw new IllegalArgumentException("not a stored history: no run header");
        replayInSeqOrder(h, events, writes);
        return h;
    }

    /** Events and writes share one sequence: append them in it so every {@code seq} comes back as it was. */
    private static void replayInSeqOrder(History h, List<Event> events, List<Write> writes) {
        List<Object> all = new ArrayList<>(events);
        all.addAll(writes);
        all.sort(Comparator.comparingLong(o -> o instanceof Event e ? e.seq() : ((Write) o).seq()));
        long expected = 0;
        for (Object o : all) {
            long seq = o instanceof Event e ? e.seq() : ((Write) o).seq();
            if (seq != expected++) throw new IllegalArgumentException("history has a gap in seq before " + seq);
            if (o instanceof Event e) {
                h.append(e.type(), e.op(), e.client(), e.nanos(), e.owner(), e.token(), e.validityNanos(), e.detail());
            } else {
                Write w = (Write) o;
                h.write(w.store(), w.client(), w.invokeNanos(), w.nanos(), w.owner(), w.token(), w.readValue(),
                        w.newValue(), w.valueBefore(), w.highestTokenBefore(), w.accepted());
            }
        }
    }

    private static History header(JsonObject run) {
        History h = new History(run.get("nodes").getAsInt(), run.get("quorum").getAsInt());
        h.span(run.get("startNanos").getAsLong(), run.get("endNanos").getAsLong());
        JsonObject lists = run.getAsJsonObject("clientLists");
        for (String client : lists.keySet()) {
            int[] l = GSON.fromJson(lists.get(client), int[].class);
            h.clientList(Integer.parseInt(client), l[0], l[1]);
        }
        return h;
    }

    private static void line(Writer out, String kind, JsonObject value) throws IOException {
        JsonObject o = new JsonObject();
        o.add(kind, value);
        out.write(GSON.toJson(o));
        out.write('\n');
    }

    private static void text(Writer out, String kind, String value) throws IOException {
        JsonObject o = new JsonObject();
        o.addProperty(kind, value);
        out.write(GSON.toJson(o));
        out.write('\n');
    }
}
