package io.queenlake.devstack.broker;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;

/**
 * A refused request, answered as {@code {"error":..,"code":..}} (plus {@code reason}/{@code detail}
 * for KV refusals, as the broker answers them). The message is one sentence naming what to fix.
 */
final class WireError extends RuntimeException {

    private final int status;
    private final String code;
    private final String reason;
    private final String detail;

    WireError(int status, String code, String message) {
        this(status, code, message, null, null);
    }

    WireError(int status, String code, String message, String reason, String detail) {
        super(message, null, false, false);
        this.status = status;
        this.code = code;
        this.reason = reason;
        this.detail = detail;
    }

    static WireError badBody(String what) {
        return new WireError(400, "bad_request", "bad body: " + what);
    }

    static WireError badRequest(String message) {
        return new WireError(400, "bad_request", message);
    }

    int status() {
        return status;
    }

    void renderTo(JsonGenerator out) throws IOException {
        out.writeStartObject();
        out.writeStringField("error", getMessage());
        out.writeStringField("code", code);
        if (reason != null) {
            out.writeStringField("reason", reason);
        }
        if (detail != null) {
            out.writeStringField("detail", detail);
        }
        out.writeEndObject();
    }
}
