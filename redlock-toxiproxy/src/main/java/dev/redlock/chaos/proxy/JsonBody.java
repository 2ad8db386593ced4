package dev.redlock.chaos.proxy;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;
import com.google.gson.Strictness;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import java.io.IOException;
import java.io.StringReader;
import java.math.BigDecimal;
import java.util.Map;
import java.util.Optional;

/**
 * A JSON object from a request body, read the way the real server reads it: keys match case-insensitively (an
 * exact match wins), unknown keys are ignored, {@code null} counts as absent, and a value of the wrong JSON type is
 * a 400 {@link ApiError} naming the field.
 */
final class JsonBody {

    private final JsonObject object;
    private final String context;

    private JsonBody(JsonObject object, String context) {
        this.object = object;
        this.context = context;
    }

    /** Parses a whole body strictly; an empty body is the real server's {@code EOF} error. */
    static JsonElement parse(String text) {
        if (text.isBlank()) {
            throw ApiError.badRequest("EOF");
        }
        try {
            JsonReader reader = new JsonReader(new StringReader(text));
            reader.setStrictness(Strictness.STRICT);
            JsonElement element = JsonParser.parseReader(reader);
            if (reader.peek() != JsonToken.END_DOCUMENT) {
                throw ApiError.badRequest("unexpected data after the JSON value");
            }
            return element;
        } catch (JsonParseException | IOException e) {
            String detail = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            throw ApiError.badRequest("invalid JSON: " + detail);
        }
    }

    /** Wraps a top-level element that must be an object; {@code what} names it in the error message. */
    static JsonBody object(JsonElement element, String what) {
        if (element == null || !element.isJsonObject()) {
            throw ApiError.badRequest(what + " must be a JSON object, got " + describe(element));
        }
        return new JsonBody(element.getAsJsonObject(), "");
    }

    Optional<String> string(String key) {
        return find(key).map(v -> {
            if (v.isJsonPrimitive() && v.getAsJsonPrimitive().isString()) {
                return v.getAsString();
            }
            throw wrongType(key, "a string", v);
        });
    }

    Optional<Boolean> bool(String key) {
        return find(key).map(v -> {
            if (v.isJsonPrimitive() && v.getAsJsonPrimitive().isBoolean()) {
                return v.getAsBoolean();
            }
            throw wrongType(key, "a boolean", v);
        });
    }

    Optional<Double> number(String key) {
        return find(key).map(v -> {
            if (v.isJsonPrimitive() && v.getAsJsonPrimitive().isNumber()) {
                double d = v.getAsDouble();
                if (Double.isFinite(d)) {
                    return d;
                }
            }
            throw wrongType(key, "a number", v);
        });
    }

    Optional<Long> integer(String key) {
        return find(key).map(v -> {
            if (v.isJsonPrimitive() && v.getAsJsonPrimitive().isNumber()) {
                try {
                    return new BigDecimal(v.getAsString()).longValueExact();
                } catch (ArithmeticException | NumberFormatException e) {
                    // fall through: a fraction or out of range
                }
            }
            throw wrongType(key, "an integer", v);
        });
    }

    Optional<JsonBody> object(String key) {
        return find(key).map(v -> {
            if (v.isJsonObject()) {
                return new JsonBody(v.getAsJsonObject(), context + key + ".");
            }
            throw wrongType(key, "an object", v);
        });
    }

    /** The field's name in messages, e.g. {@code attributes.latency}. */
    String field(String key) {
        return context + key;
    }

    private Optional<JsonElement> find(String key) {
        JsonElement exact = object.get(key);
        if (exact != null) {
            return exact.isJsonNull() ? Optional.empty() : Optional.of(exact);
        }
        for (Map.Entry<String, JsonElement> e : object.entrySet()) {
            if (e.getKey().equalsIgnoreCase(key)) {
                return e.getValue().isJsonNull() ? Optional.empty() : Optional.of(e.getValue());
            }
        }
        return Optional.empty();
    }

    private ApiError wrongType(String key, String expected, JsonElement got) {
        return ApiError.badRequest("field " + field(key) + " must be " + expected + ", got " + describe(got));
    }

    private static String describe(JsonElement e) {
        if (e == null || e.isJsonNull()) {
            return "null";
        }
        if (e.isJsonObject()) {
            return "an object";
        }
        if (e.isJsonArray()) {
            return "an array";
        }
        JsonPrimitive p = e.getAsJsonPrimitive();
        String text = p.toString();
        return text.length() > 40 ? text.substring(0, 40) + "..." : text;
    }
}
