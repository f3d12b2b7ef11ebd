package io.queenlake.devstack.broker;

import com.fasterxml.jackson.core.JsonGenerator;
import java.nio.charset.StandardCharsets;

/** The small read-only routes: {@code /health}, {@code /status}, the queue listing and Prometheus metrics. */
final class InfoRoutes {

    static final String ENGINE = "queen-lake-dev-broker";
    static final String VERSION = "0.1.0";

    private final BrokerState state;

    InfoRoutes(BrokerState state) {
        this.state = state;
    }

    Route health() {
        return (call, reply) -> {
            JsonGenerator out = reply.json(200);
            out.writeStartObject();
            out.writeStringField("status", "healthy");
            out.writeStringField("engine", ENGINE);
            out.writeStringField("version", VERSION);
            out.writeEndObject();
            reply.send();
        };
    }

    Route status() {
        return (call, reply) -> {
            long partitions = 0;
            long queues = 0;
            for (Tenant t : state.tenants()) {
                for (BrokerQueue q : t.queuesInCreationOrder()) {
                    queues++;
                    partitions += q.partitions().size();
                }
            }
            JsonGenerator out = reply.json(200);
            out.writeStartObject();
            out.writeStringField("status", "ok");
            out.writeStringField("engine", ENGINE);
            out.writeStringField("version", VERSION);
            out.writeFieldName("safeTime");
            AnswerJson.stamp(out, state.clock().safeTime());
            out.writeNumberField("queues", queues);
            out.writeNumberField("partitions", partitions);
            out.writeEndObject();
            reply.send();
        };
    }

    /** {@code GET /api/v1/resources/queues}: the caller's queues in creation order. */
    Route queues() {
        return (call, reply) -> {
            JsonGenerator out = reply.json(200);
            out.writeStartObject();
            out.writeArrayFieldStart("queues");
            Tenant t = state.tenant(call.tenant());
            if (t != null) {
                for (BrokerQueue q : t.queuesInCreationOrder()) {
                    out.writeStartObject();
                    out.writeStringField("name", q.name());
                    out.writeNumberField("partitions", q.partitions().size());
                    out.writeEndObject();
                }
            }
            out.writeEndArray();
            out.writeEndObject();
            reply.send();
        };
    }

    /** Prometheus text: per queue the partition count, stored records and highest offsets; the broker's safeTime. */
    Route metrics() {
        return (call, reply) -> {
            StringBuilder text = new StringBuilder();
            text.append("# TYPE queen_dev_safe_time_seconds gauge\n")
                    .append("queen_dev_safe_time_seconds ").append(state.clock().safeTime() / 1e6).append('\n')
                    .append("# TYPE queen_dev_partitions gauge\n# TYPE queen_dev_records_stored gauge\n");
            for (Tenant t : state.tenants()) {
                for (BrokerQueue q : t.queuesInCreationOrder()) {
                    long stored = 0;
                    for (PartitionLog p : q.partitions()) {
                        PartitionLog.Bounds b = p.bounds();
                        stored += b.highWatermark() - b.logStart();
                    }
                    String labels = "{tenant=\"" + t.id() + "\",queue=\"" + q.name().replace("\\", "\\\\").replace("\"", "\\\"") + "\"}";
                    text.append("queen_dev_partitions").append(labels).append(' ').append(q.partitions().size()).append('\n');
                    text.append("queen_dev_records_stored").append(labels).append(' ').append(stored).append('\n');
                }
            }
            reply.text(200, "text/plain; version=0.0.4", text.toString().getBytes(StandardCharsets.UTF_8));
        };
    }
}
