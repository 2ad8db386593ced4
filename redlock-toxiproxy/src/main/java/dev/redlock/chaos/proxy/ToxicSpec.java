package dev.redlock.chaos.proxy;

import com.google.gson.JsonObject;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Predicate;

/**
 * One toxic's configuration, immutable. An update makes a new spec with the same {@code id}, which is how open
 * connections tell "changed" (reconfigure the running stage) from "removed and re-added" (a new stage).
 *
 * @param id         unique per creation within a server
 * @param attributes every attribute of the type, in the type's order, zeros included
 */
record ToxicSpec(long id, String name, ToxicType type, Direction stream, float toxicity,
                 Map<String, Long> attributes) {

    ToxicSpec {
        attributes = Collections.unmodifiableMap(new LinkedHashMap<>(attributes));
    }

    /**
     * Reads a {@code POST /proxies/{p}/toxics} body, checking in the real server's order: stream, type, name
     * taken, attributes. Defaults: stream {@code downstream}, toxicity 1, name {@code <type>_<stream>}.
     */
    static ToxicSpec create(JsonBody body, long id, Predicate<String> nameTaken) {
        String streamText = body.string("stream").orElse("downstream");
        Direction stream = Direction.parse(streamText)
                .orElseThrow(() -> new ApiError(400, ApiError.INVALID_STREAM));
        String typeText = body.string("type").orElse("");
        float toxicity = toxicity(body, 1.0f);
        String name = body.string("name").filter(n -> !n.isEmpty())
                .orElse(typeText + "_" + stream.wireName());
        ToxicType type = ToxicType.parse(typeText)
                .orElseThrow(() -> new ApiError(400, ApiError.INVALID_TOXIC_TYPE));
        if (nameTaken.test(name)) {
            throw new ApiError(409, ApiError.TOXIC_EXISTS);
        }
        Map<String, Long> attributes = new LinkedHashMap<>();
        type.attributes().forEach(a -> attributes.put(a, 0L));
        JsonBody given = body.object("attributes").orElse(null);
        return new ToxicSpec(id, name, type, stream, toxicity, merge(type, attributes, given));
    }

    /** Applies a {@code POST /proxies/{p}/toxics/{t}} body: given attributes and toxicity replace, the rest stay. */
    ToxicSpec update(JsonBody body) {
        float newToxicity = toxicity(body, toxicity);
        JsonBody given = body.object("attributes").orElse(null);
        return new ToxicSpec(id, name, type, stream, newToxicity, merge(type, attributes, given));
    }

    long attribute(String key) {
        Long value = attributes.get(key);
        if (value == null) {
            throw new IllegalArgumentException(type.wireName() + " has no attribute " + key);
        }
        return value;
    }

    JsonObject toJson() {
        JsonObject json = new JsonObject();
        json.addProperty("name", name);
        json.addProperty("type", type.wireName());
        json.addProperty("stream", stream.wireName());
        json.addProperty("toxicity", toxicity);
        JsonObject attrs = new JsonObject();
        attributes.forEach(attrs::addProperty);
        json.add("attributes", attrs);
        return json;
    }

    private static Map<String, Long> merge(ToxicType type, Map<String, Long> base, JsonBody given) {
        Map<String, Long> merged = new LinkedHashMap<>(base);
        if (given != null) {
            for (String attribute : type.attributes()) {
                given.integer(attribute).ifPresent(v -> {
                    if (v < 0) {
                        throw ApiError.badRequest(given.field(attribute) + " must be >= 0, got " + v);
                    }
                    merged.put(attribute, v);
                });
            }
        }
        return merged;
    }

    private static float toxicity(JsonBody body, float fallback) {
        return body.number("toxicity").map(t -> {
            if (t < 0 || t > 1) {
                throw ApiError.badRequest("toxicity must be within [0, 1], got " + t);
            }
            return t.floatValue();
        }).orElse(fallback);
    }
}
