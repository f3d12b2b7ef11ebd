package io.queenlake.devstack.broker;

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
            reply.json(200).ascii("{\"status\":\"healthy\",\"engine\":").string(ENGINE)
                    .ascii(",\"version\":").string(VERSION).raw((byte) '}');
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
            reply.json(200).ascii("{\"status\":\"ok\",\"engine\":").string(ENGINE)
                    .ascii(",\"version\":").string(VERSION)
                    .ascii(",\"safeTime\":").iso(state.clock().safeTime())
                    .ascii(",\"queues\":").number(queues)
                    .ascii(",\"partitions\":").number(partitions).raw((byte) '}');
            reply.send();
        };
    }

    /** {@code GET /api/v1/resources/queues}: the caller's queues in creation order. */
    Route queues() {
        return (call, reply) -> {
            JsonOut out = reply.json(200).ascii("{\"queues\":[");
            Tenant t = state.tenant(call.tenant());
            if (t != null) {
                boolean first = true;
                for (BrokerQueue q : t.queuesInCreationOrder()) {
                    if (!first) {
                        out.raw((byte) ',');
                    }
                    first = false;
                    out.raw((byte) '{').field("name").string(q.name())
                            .raw((byte) ',').field("partitions").number(q.partitions().size()).raw((byte) '}');
                }
            }
            out.ascii("]}");
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
            reply.body(200, "text/plain; version=0.0.4").raw(text.toString().getBytes(StandardCharsets.UTF_8));
            reply.send();
        };
    }
}
