package io.queenlake.devstack.broker;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.time.format.DateTimeParseException;
import java.util.List;

/**
 * {@code POST /api/v1/fetch/offsets}: per entry, the first stored record stamped at or after a time
 * given in epoch milliseconds (or ISO, cut to milliseconds); {@code null} when nothing is that late.
 */
final class FetchOffsetsRoute implements Route {

    private static final String BAD_TIMESTAMP =
            "timestamp must be a non-negative number of epoch milliseconds or an ISO-8601 time";

    private final BrokerState state;

    FetchOffsetsRoute(BrokerState state) {
        this.state = state;
    }

    @Override
    public void handle(Call call, Reply reply) throws IOException {
        JsonNode body = WireJson.tree(call.body());
        List<JsonNode> list = WireJson.entries(body, FetchRoute.MAX_ENTRIES);
        int n = list.size();
        String[] queues = new String[n];
        String[] partitions = new String[n];
        long[] millis = new long[n];
        for (int i = 0; i < n; i++) {
            JsonNode e = list.get(i);
            queues[i] = WireJson.text(e.get("queue"), "entry " + i + ": queue");
            partitions[i] = WireJson.partitionName(e.get("partition"));
            millis[i] = timestampMillis(e.get("timestamp"));
        }
        JsonGenerator out = reply.json(200);
        out.writeStartObject();
        out.writeArrayFieldStart("entries");
        for (int i = 0; i < n; i++) {
            renderEntry(call.tenant(), queues[i], partitions[i], millis[i], out);
        }
        out.writeEndArray();
        out.writeEndObject();
        reply.send();
    }

    private void renderEntry(String tenant, String queue, String partition, long millis, JsonGenerator out)
            throws IOException {
        out.writeStartObject();
        out.writeStringField("queue", queue);
        out.writeStringField("partition", partition);
        BrokerQueue q = state.queue(tenant, queue);
        PartitionLog log = q == null ? null : q.partition(partition);
        StoredRecord first = log == null ? null : log.firstAtOrAfter(Math.multiplyExact(millis, 1_000L));
        PartitionLog.Bounds b = log == null ? new PartitionLog.Bounds(0, 0) : log.bounds();
        if (first == null) {
            out.writeNullField("offset");
            out.writeNullField("ts");
        } else {
            out.writeNumberField("offset", first.offset());
            out.writeFieldName("ts");
            AnswerJson.stamp(out, first.stamp());
        }
        out.writeNumberField("highWatermark", b.highWatermark());
        out.writeNumberField("logStartOffset", b.logStart());
        if (q == null) {
            out.writeStringField("error", FetchRoute.UNKNOWN);
        }
        out.writeEndObject();
    }

    static long timestampMillis(JsonNode ts) {
        if (ts != null && ts.isIntegralNumber() && ts.canConvertToLong() && ts.longValue() >= 0
                && ts.longValue() <= Long.MAX_VALUE / 1_000L) {
            return ts.longValue();
        }
        if (ts != null && ts.isTextual()) {
            try {
                return Math.floorDiv(BrokerTime.parseMicros(ts.textValue()), 1_000L);
            } catch (DateTimeParseException | ArithmeticException e) {
                throw WireError.badRequest(BAD_TIMESTAMP);
            }
        }
        throw WireError.badRequest(BAD_TIMESTAMP);
    }
}
