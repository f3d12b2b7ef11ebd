package io.queenlake.devstack.broker;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import io.queenlake.devstack.broker.JournalEntry.QueueConfigured;
import io.queenlake.devstack.broker.JournalEntry.QueueCreated;
import java.io.IOException;

/**
 * {@code POST /api/v1/configure}: sets a queue's retention options (creating the queue if needed, as
 * Queen's configure does). Options left out keep their current value; other queue options are ignored.
 */
final class ConfigureRoute implements Route {

    private final BrokerState state;

    ConfigureRoute(BrokerState state) {
        this.state = state;
    }

    @Override
    public void handle(Call call, Reply reply) throws IOException {
        JsonNode body = WireJson.tree(call.body());
        String queue = WireJson.text(body.get("queue"), "queue");
        if (queue.isEmpty()) {
            throw WireError.badBody("queue must be a non-empty string");
        }
        JsonNode options = body.path("options");
        RetentionOptions applied = state.write(change -> {
            BrokerQueue q = state.queue(call.tenant(), queue);
            RetentionOptions next = merge(q == null ? RetentionOptions.NONE : q.retention(), options);
            if (q == null) {
                change.apply(new QueueCreated(call.tenant(), queue));
            }
            change.stamp();
            change.apply(new QueueConfigured(call.tenant(), queue, next));
            return next;
        });
        JsonGenerator out = reply.json(200);
        out.writeStartObject();
        out.writeStringField("queue", queue);
        out.writeObjectFieldStart("options");
        out.writeBooleanField("retentionEnabled", applied.enabled());
        out.writeNumberField("retentionSeconds", applied.seconds());
        out.writeStringField("retentionSinkHold", applied.sinkHold());
        out.writeNumberField("retentionSinkHoldMaxSeconds", applied.sinkHoldMaxSeconds());
        out.writeEndObject();
        out.writeEndObject();
        reply.send();
    }

    static RetentionOptions merge(RetentionOptions current, JsonNode options) {
        if (!options.isMissingNode() && !options.isNull() && !options.isObject()) {
            throw WireError.badBody("options must be an object");
        }
        boolean enabled = current.enabled();
        long seconds = current.seconds();
        String hold = current.sinkHold();
        long holdMax = current.sinkHoldMaxSeconds();
        JsonNode v = options.get("retentionEnabled");
        if (v != null && !v.isNull()) {
            if (!v.isBoolean()) {
                throw WireError.badBody("options.retentionEnabled must be true or false");
            }
            enabled = v.booleanValue();
        }
        seconds = whole(options.get("retentionSeconds"), "retentionSeconds", seconds);
        v = options.get("retentionSinkHold");
        if (v != null && !v.isNull()) {
            hold = WireJson.text(v, "options.retentionSinkHold");
        }
        holdMax = whole(options.get("retentionSinkHoldMaxSeconds"), "retentionSinkHoldMaxSeconds", holdMax);
        try {
            return new RetentionOptions(enabled, seconds, hold, holdMax);
        } catch (IllegalArgumentException e) {
            throw WireError.badBody(e.getMessage());
        }
    }

    private static long whole(JsonNode v, String name, long current) {
        if (v == null || v.isNull()) {
            return current;
        }
        if (!v.isIntegralNumber() || !v.canConvertToLong()) {
            throw WireError.badBody("options." + name + " must be a whole number of seconds");
        }
        return v.longValue();
    }
}
