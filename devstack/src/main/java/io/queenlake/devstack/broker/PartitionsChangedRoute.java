package io.queenlake.devstack.broker;

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
        JsonOut out = reply.json(200);
        out.ascii("{\"safeTime\":").iso(safeTime).ascii(",\"safeTimeDegraded\":false,\"entries\":[");
        for (int i = 0; i < n; i++) {
            if (i > 0) {
                out.raw((byte) ',');
            }
            renderEntry(call.tenant(), entries[i], out);
        }
        out.ascii("]}");
        reply.send();
    }

    private void renderEntry(String tenant, Entry e, JsonOut out) {
        out.raw((byte) '{').field("queue").string(e.queue());
        BrokerQueue queue = state.queue(tenant, e.queue());
        if (queue == null) {
            out.ascii(",\"error\":").string(FetchRoute.UNKNOWN).raw((byte) '}');
            return;
        }
        long afterPid = cursorPid(e.after());
        if (afterPid < 0) {
            out.ascii(",\"error\":").string(BAD_CURSOR).raw((byte) '}');
            return;
        }
        List<PartitionLog> page = queue.page(afterPid, e.sinceMicros(), e.limit());
        out.ascii(",\"partitions\":[");
        for (int j = 0; j < page.size(); j++) {
            PartitionLog p = page.get(j);
            long lastWriteAt = p.lastWriteAt();
            PartitionLog.Bounds b = p.bounds();
            if (j > 0) {
                out.raw((byte) ',');
            }
            out.raw((byte) '{').field("name").string(p.name())
                    .raw((byte) ',').field("id").string(p.id().toString())
                    .raw((byte) ',').field("lastOffset").number(b.lastOffset())
                    .raw((byte) ',').field("logStart").number(b.logStart())
                    .raw((byte) ',').field("lastWriteAt").iso(lastWriteAt)
                    .raw((byte) '}');
        }
        out.ascii("],\"next\":");
        if (page.size() >= e.limit()) {
            out.string("p|" + page.get(page.size() - 1).pid());
        } else {
            out.nul();
        }
        out.raw((byte) '}');
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
