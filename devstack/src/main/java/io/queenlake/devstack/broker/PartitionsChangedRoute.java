package io.queenlake.devstack.broker;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.time.format.DateTimeParseException;
import java.util.List;

/**
 * {@code POST /api/v1/partitions/changed}: discovery pages in creation order with a {@code p|<pid>}
 * cursor, and the broker's safeTime. safeTime is read before any row, and a write is applied before
 * its stamp becomes safeTime, so every record stamped at or below it is in the rows that follow.
 */
final class PartitionsChangedRoute implements Route {

    static final int MAX_LIMIT = 1000;
    static final String BAD_CURSOR = "BAD_CURSOR";

    private record Entry(String queue, long sinceMicros, JsonNode after, int limit) {}

    private final BrokerState state;

    PartitionsChangedRoute(BrokerState state) {
        this.state = state;
    }

    @Override
    public void handle(Call call, Reply reply) throws IOException {
        JsonNode body = WireJson.tree(call.body());
        List<JsonNode> list = WireJson.entries(body, FetchRoute.MAX_ENTRIES);
        int n = list.size();
        Entry[] entries = new Entry[n];
        for (int i = 0; i < n; i++) {
            entries[i] = entry(list.get(i), i);
        }
        long safeTime = state.clock().safeTime();
        JsonGenerator out = reply.json(200);
        out.writeStartObject();
        out.writeFieldName("safeTime");
        AnswerJson.stamp(out, safeTime);
        out.writeBooleanField("safeTimeDegraded", false);
        out.writeArrayFieldStart("entries");
        for (Entry e : entries) {
            renderEntry(call.tenant(), e, out);
        }
        out.writeEndArray();
        out.writeEndObject();
        reply.send();
    }

    private void renderEntry(String tenant, Entry e, JsonGenerator out) throws IOException {
        out.writeStartObject();
        out.writeStringField("queue", e.queue());
        BrokerQueue queue = state.queue(tenant, e.queue());
        if (queue == null) {
            out.writeStringField("error", FetchRoute.UNKNOWN);
            out.writeEndObject();
            return;
        }
        long afterPid = cursorPid(e.after());
        if (afterPid < 0) {
            out.writeStringField("error", BAD_CURSOR);
            out.writeEndObject();
            return;
        }
        List<PartitionLog> page = queue.page(afterPid, e.sinceMicros(), e.limit());
        out.writeArrayFieldStart("partitions");
        for (PartitionLog p : page) {
            long lastWriteAt = p.lastWriteAt();
            PartitionLog.Bounds b = p.bounds();
            out.writeStartObject();
            out.writeStringField("name", p.name());
            out.writeStringField("id", p.id().toString());
            out.writeNumberField("lastOffset", b.lastOffset());
            out.writeNumberField("logStart", b.logStart());
            out.writeFieldName("lastWriteAt");
            AnswerJson.stamp(out, lastWriteAt);
            out.writeEndObject();
        }
        out.writeEndArray();
        out.writeStringField("next", page.size() >= e.limit() ? "p|" + page.get(page.size() - 1).pid() : null);
        out.writeEndObject();
    }

    /** The pid a cursor points after: 0 for the first page, -1 for a cursor this broker never gave. */
    static long cursorPid(JsonNode after) {
        if (after == null || after.isNull() || (after.isTextual() && after.textValue().isEmpty())) {
            return 0;
        }
        if (!after.isTextual() || !after.textValue().matches("p\\|[0-9]{1,18}")) {
            return -1;
        }
        return Long.parseLong(after.textValue().substring(2));
    }

    private static Entry entry(JsonNode e, int i) {
        String queue = WireJson.text(e.get("queue"), "entry " + i + ": queue");
        JsonNode since = e.get("since");
        long sinceMicros = Long.MIN_VALUE;
        if (since != null && !since.isNull()) {
            if (!since.isTextual()) {
                throw WireError.badBody("entry " + i + ": since is not a timestamp: " + since);
            }
            try {
                sinceMicros = BrokerTime.parseMicros(since.textValue());
            } catch (DateTimeParseException | ArithmeticException bad) {
                throw WireError.badBody("entry " + i + ": since is not a timestamp: " + since);
            }
        }
        int limit = MAX_LIMIT;
        JsonNode l = e.get("limit");
        if (l != null && l.isNumber()) {
            limit = (int) Math.min(Math.max(l.asLong(), 1), MAX_LIMIT);
        }
        return new Entry(queue, sinceMicros, e.get("after"), limit);
    }
}
