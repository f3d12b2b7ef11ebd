package io.queenlake.devstack.broker;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code POST /api/v1/fetch}: reads partitions by offset. Each entry reads its bounds first and its
 * records second, as the broker does, so a retention pass in between shows up as an offset jump
 * rather than an error. With {@code maxWaitMs} and {@code minBytes} it parks until enough payload
 * arrived, an entry errored, or the deadline passed, re-reading on every write (at least each second).
 */
final class FetchRoute implements Route {

    static final int MAX_ENTRIES = 1024;
    static final long DEFAULT_MAX_BYTES = 1L << 20;
    static final long MAX_MAX_BYTES = 8L << 20;
    static final int MAX_RECORDS_PER_ENTRY = 10_000;
    static final long MAX_WAIT_MS = 30_000;

    static final String OUT_OF_RANGE = "OFFSET_OUT_OF_RANGE";
    static final String UNKNOWN = "UNKNOWN_TOPIC_OR_PARTITION";

    record Entry(String queue, String partition, long offset, long maxBytes) {}

    /** What one entry answers. */
    record Result(Entry entry, String error, long logStart, long highWatermark, PartitionLog.Run run) {}

    private final BrokerState state;

    FetchRoute(BrokerState state) {
        this.state = state;
    }

    @Override
    public void handle(Call call, Reply reply) throws IOException {
        JsonNode body = WireJson.tree(call.body());
        List<Entry> entries = entries(body);
        long maxWaitMs = Math.min(Math.max(body.path("maxWaitMs").asLong(0), 0), MAX_WAIT_MS);
        long minBytes = Math.max(body.path("minBytes").asLong(1), 0);
        List<Result> results = maxWaitMs > 0 && minBytes > 0
                ? park(call.tenant(), entries, maxWaitMs, minBytes)
                : read(call.tenant(), entries);
        render(results, reply.json(200));
        reply.send();
    }

    /** The signal is read before each read, so a write landing during the read still wakes the wait. */
    private List<Result> park(String tenant, List<Entry> entries, long maxWaitMs, long minBytes) throws IOException {
        long deadline = System.nanoTime() + maxWaitMs * 1_000_000L;
        while (true) {
            long seen = state.signal().current();
            List<Result> results = read(tenant, entries);
            if (satisfied(results, minBytes) || System.nanoTime() >= deadline) {
                return results;
            }
            try {
                state.signal().awaitAfter(seen, Math.min(deadline, System.nanoTime() + 1_000_000_000L));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while long-polling", e);
            }
        }
    }

    private static boolean satisfied(List<Result> results, long minBytes) {
        long bytes = 0;
        for (Result r : results) {
            if (r.error() != null) {
                return true;
            }
            bytes += r.run().payloadBytes();
        }
        return bytes >= minBytes;
    }

    List<Result> read(String tenant, List<Entry> entries) {
        List<Result> out = new ArrayList<>(entries.size());
        for (Entry e : entries) {
            out.add(read(tenant, e));
        }
        return out;
    }

    private Result read(String tenant, Entry e) {
        BrokerQueue queue = state.queue(tenant, e.queue());
        if (queue == null) {
            return new Result(e, UNKNOWN, 0, 0, PartitionLog.Run.EMPTY);
        }
        PartitionLog log = queue.partition(e.partition());
        if (log == null) {
            return e.offset() == 0
                    ? new Result(e, null, 0, 0, PartitionLog.Run.EMPTY)
                    : new Result(e, OUT_OF_RANGE, 0, 0, PartitionLog.Run.EMPTY);
        }
        PartitionLog.Bounds b = log.bounds();
        if (e.offset() > b.highWatermark() || e.offset() < b.logStart()) {
            return new Result(e, OUT_OF_RANGE, b.logStart(), b.highWatermark(), PartitionLog.Run.EMPTY);
        }
        PartitionLog.Run run = log.read(e.offset(), e.maxBytes(), MAX_RECORDS_PER_ENTRY);
        return new Result(e, null, b.logStart(), b.highWatermark(), run);
    }

    /** Each record goes in as the element it was rendered to at append time: its bytes, copied once. */
    static void render(List<Result> results, JsonGenerator out) throws IOException {
        out.writeStartObject();
        out.writeArrayFieldStart("entries");
        for (Result r : results) {
            out.writeStartObject();
            out.writeStringField("queue", r.entry().queue());
            out.writeStringField("partition", r.entry().partition());
            out.writeArrayFieldStart("records");
            for (StoredRecord record : r.run().records()) {
                out.writeRawValue(record.json());
            }
            out.writeEndArray();
            out.writeNumberField("highWatermark", r.highWatermark());
            out.writeNumberField("logStartOffset", r.logStart());
            if (r.error() != null) {
                out.writeStringField("error", r.error());
            }
            out.writeEndObject();
        }
        out.writeEndArray();
        out.writeEndObject();
    }

    static List<Entry> entries(JsonNode body) {
        List<JsonNode> list = WireJson.entries(body, MAX_ENTRIES);
        List<Entry> out = new ArrayList<>(list.size());
        for (int i = 0; i < list.size(); i++) {
            JsonNode e = list.get(i);
            String queue = WireJson.text(e.get("queue"), "entry " + i + ": queue");
            JsonNode offset = e.get("offset");
            if (offset == null || !offset.isIntegralNumber() || !offset.canConvertToLong()) {
                throw WireError.badBody("entry " + i + ": offset must be an integer");
            }
            if (offset.longValue() < 0) {
                throw WireError.badRequest("offset must be non-negative");
            }
            long maxBytes = e.hasNonNull("maxBytes") ? e.get("maxBytes").asLong(DEFAULT_MAX_BYTES) : DEFAULT_MAX_BYTES;
            maxBytes = Math.min(Math.max(maxBytes, 1), MAX_MAX_BYTES);
            out.add(new Entry(queue, WireJson.partitionName(e.get("partition")), offset.longValue(), maxBytes));
        }
        return out;
    }
}
