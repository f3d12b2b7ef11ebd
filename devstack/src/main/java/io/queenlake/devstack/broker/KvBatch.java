package io.queenlake.devstack.broker;

import com.fasterxml.jackson.core.JsonGenerator;
import io.queenlake.devstack.broker.JournalEntry.KvWritten;
import io.queenlake.devstack.broker.KvOperation.Kind;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs one KV batch as a single write: gets and writes in order against the batch's own pending
 * writes, then, unless a {@code required} precondition was lost (which discards every pending write),
 * applies the writes and evaluates getMany/getPrefix after them. Versions come from the broker-wide
 * sequence; a batch that writes takes a stamp, so it moves safeTime even when it applies nothing.
 */
final class KvBatch {

    /** One rendered result, or the roll-back verdict. */
    interface Answer {
        void renderTo(JsonGenerator out) throws IOException;
    }

    private static final long READ_BUDGET_BYTES = 4L << 20;

    private record Pending(String ns, String key, KvRow row) {}

    private final String tenant;
    private final List<KvOperation> ops;
    private final Map<String, Pending> pending = new LinkedHashMap<>();
    private long readBytes;

    KvBatch(String tenant, List<KvOperation> ops) {
        this.tenant = tenant;
        this.ops = ops;
    }

    Answer run(BrokerState.Change change) {
        BrokerState state = change.state();
        Tenant t = state.tenant(tenant);
        KvStore store = t == null ? new KvStore() : t.kv();
        long now = state.clock().now();
        boolean writes = ops.stream().anyMatch(op -> op.kind().writes());
        long stamp = writes ? change.stamp() : 0;
        Answer[] results = new Answer[ops.size()];
        for (KvOperation op : ops) {
            if (op.kind() == Kind.GET) {
                KvRow row = live(store, op.ns(), op.key(), now);
                results[op.index()] = out -> getResult(out, op, row);
            } else if (op.kind().writes()) {
                KvRow current = live(store, op.ns(), op.key(), now);
                String lost = lostPrecondition(op, current);
                if (lost != null && op.required()) {
                    return out -> rolledBack(out, op.index(), lost, current);
                }
                results[op.index()] = lost != null ? out -> lostResult(out, op, lost, current) : write(change, op, current, stamp);
            }
        }
        for (Pending p : pending.values()) {
            change.apply(new KvWritten(tenant, p.ns(), p.key(), p.row()));
        }
        KvStore applied = state.tenant(tenant) == null ? store : state.tenant(tenant).kv();
        for (KvOperation op : ops) {
            if (op.kind() == Kind.GET_MANY) {
                results[op.index()] = getMany(applied, op, now);
            } else if (op.kind() == Kind.GET_PREFIX) {
                results[op.index()] = getPrefix(applied, op, now);
            }
        }
        return out -> {
            out.writeStartObject();
            out.writeArrayFieldStart("results");
            for (Answer result : results) {
                result.renderTo(out);
            }
            out.writeEndArray();
            out.writeEndObject();
        };
    }

    private KvRow live(KvStore store, String ns, String key, long now) {
        Pending p = pending.get(ns + '\u0000' + key);
        KvRow row = p != null ? p.row() : store.stored(ns, key);
        return row == null || row.expiredAt(now) ? null : row;
    }

    /** The reason a write loses ({@code exists|absent|version}), or null when it applies. */
    private static String lostPrecondition(KvOperation op, KvRow current) {
        Long expect = op.effectiveExpect();
        if (expect == null) {
            return null;
        }
        if (expect == 0) {
            return current != null ? "exists" : null;
        }
        if (current == null) {
            return "absent";
        }
        return current.version() == expect ? null : "version";
    }

    private Answer write(BrokerState.Change change, KvOperation op, KvRow current, long stamp) {
        String slot = op.ns() + '\u0000' + op.key();
        if (op.kind() == Kind.DELETE) {
            if (current != null) {
                pending.put(slot, new Pending(op.ns(), op.key(), null));
            }
            return out -> {
                head(out, op);
                out.writeBooleanField("applied", true);
                out.writeStringField("key", op.key());
                version(out, current);
                out.writeEndObject();
            };
        }
        long expiresAt = op.forever() ? 0 : stamp + op.ttlSeconds() * 1_000_000L;
        KvRow row = new KvRow(op.value(), change.nextKvVersion(), expiresAt, stamp);
        pending.put(slot, new Pending(op.ns(), op.key(), row));
        return out -> {
            head(out, op);
            out.writeBooleanField("applied", true);
            out.writeStringField("key", op.key());
            value(out, row);
            out.writeNumberField("version", row.version());
            out.writeEndObject();
        };
    }

    private static void getResult(JsonGenerator out, KvOperation op, KvRow row) throws IOException {
        head(out, op);
        out.writeBooleanField("found", row != null);
        out.writeStringField("key", op.key());
        if (row == null) {
            out.writeNullField("value");
            out.writeNullField("version");
            out.writeNullField("expiresAt");
            out.writeNullField("updatedAt");
        } else {
            rowFields(out, row, true);
        }
        out.writeEndObject();
    }

    private static void lostResult(JsonGenerator out, KvOperation op, String reason, KvRow winner) throws IOException {
        head(out, op);
        out.writeBooleanField("applied", false);
        out.writeStringField("key", op.key());
        out.writeStringField("reason", reason);
        value(out, winner);
        version(out, winner);
        out.writeEndObject();
    }

    private static void rolledBack(JsonGenerator out, int index, String reason, KvRow winner) throws IOException {
        out.writeStartObject();
        out.writeBooleanField("ok", false);
        out.writeStringField("reason", "kv_precondition");
        out.writeNumberField("failedIndex", index);
        out.writeStringField("kvReason", reason);
        version(out, winner);
        value(out, winner);
        out.writeEndObject();
    }

    private Answer getMany(KvStore store, KvOperation op, long now) {
        List<Map.Entry<String, KvRow>> rows = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        boolean truncated = false;
        for (String key : op.keys()) {
            KvRow row = store.live(op.ns(), key, now);
            if (row == null) {
                missing.add(key);
            } else if (withinBudget(row)) {
                rows.add(Map.entry(key, row));
            } else {
                truncated = true;
            }
        }
        boolean cut = truncated;
        return out -> {
            head(out, op);
            rows(out, rows, false);
            out.writeArrayFieldStart("missing");
            for (String key : missing) {
                out.writeString(key);
            }
            out.writeEndArray();
            out.writeBooleanField("truncated", cut);
            out.writeEndObject();
        };
    }

    private Answer getPrefix(KvStore store, KvOperation op, long now) {
        List<Map.Entry<String, KvRow>> scanned = store.scan(op.ns(), op.prefix(), op.after(), op.limit() + 1, now);
        boolean truncated = scanned.size() > op.limit();
        List<Map.Entry<String, KvRow>> rows = new ArrayList<>();
        for (Map.Entry<String, KvRow> e : scanned.subList(0, Math.min(op.limit(), scanned.size()))) {
            if (!op.keysOnly() && !withinBudget(e.getValue())) {
                truncated = true;
                break;
            }
            rows.add(e);
        }
        boolean cut = truncated;
        String nextAfter = cut && !rows.isEmpty() ? rows.get(rows.size() - 1).getKey() : null;
        return out -> {
            head(out, op);
            rows(out, rows, op.keysOnly());
            out.writeBooleanField("truncated", cut);
            out.writeStringField("nextAfter", nextAfter);
            out.writeEndObject();
        };
    }

    private boolean withinBudget(KvRow row) {
        readBytes += row.value().length;
        return readBytes <= READ_BUDGET_BYTES;
    }

    private static void rows(JsonGenerator out, List<Map.Entry<String, KvRow>> rows, boolean keysOnly) throws IOException {
        out.writeArrayFieldStart("rows");
        for (Map.Entry<String, KvRow> row : rows) {
            out.writeStartObject();
            out.writeStringField("key", row.getKey());
            rowFields(out, row.getValue(), !keysOnly);
            out.writeEndObject();
        }
        out.writeEndArray();
    }

    private static void rowFields(JsonGenerator out, KvRow row, boolean withValue) throws IOException {
        if (withValue) {
            value(out, row);
        }
        out.writeNumberField("version", row.version());
        out.writeStringField("expiresAt", row.expiresAtMicros() == 0 ? null : BrokerTime.isoOffset(row.expiresAtMicros()));
        out.writeStringField("updatedAt", BrokerTime.isoOffset(row.updatedAtMicros()));
    }

    /** A row's value, stored as the JSON text it was put with, goes out as those bytes; null without a row. */
    private static void value(JsonGenerator out, KvRow row) throws IOException {
        out.writeFieldName("value");
        if (row == null) {
            out.writeNull();
        } else {
            out.writeRawValue(new StoredJson(row.value()));
        }
    }

    private static void version(JsonGenerator out, KvRow row) throws IOException {
        out.writeFieldName("version");
        if (row == null) {
            out.writeNull();
        } else {
            out.writeNumber(row.version());
        }
    }

    /** Opens a result: its index and op; the caller ends the object. */
    private static void head(JsonGenerator out, KvOperation op) throws IOException {
        out.writeStartObject();
        out.writeNumberField("index", op.index());
        out.writeStringField("op", op.kind().wire);
    }
}
