package dev.redlock.chaos.proxy;

import com.google.gson.JsonObject;

/**
 * A control API failure: an HTTP status and a message, rendered as {@code {"error":"...","status":N}}.
 * The messages of the real server are kept word for word, because clients match on them.
 */
final class ApiError extends RuntimeException {

    static final String PROXY_NOT_FOUND = "proxy not found";
    static final String PROXY_EXISTS = "proxy already exists";
    static final String TOXIC_NOT_FOUND = "toxic not found";
    static final String TOXIC_EXISTS = "toxic already exists";
    static final String INVALID_STREAM = "stream was invalid, can be either upstream or downstream";
    static final String INVALID_TOXIC_TYPE = "invalid toxic type";

    private final int status;

    ApiError(int status, String message) {
        super(message, null, false, false);
        this.status = status;
    }

    static ApiError badRequest(String detail) {
        return new ApiError(400, "bad request body: " + detail);
    }

    static ApiError missingField(String field) {
        return new ApiError(400, "missing required field: " + field);
    }

    static ApiError proxyNotFound() {
        return new ApiError(404, PROXY_NOT_FOUND);
    }

    static ApiError toxicNotFound() {
        return new ApiError(404, TOXIC_NOT_FOUND);
    }

    int status() {
        return status;
    }

    JsonObject toJson() {
        JsonObject body = new JsonObject();
        body.addProperty("error", getMessage());
        body.addProperty("status", status);
        return body;
    }
}
