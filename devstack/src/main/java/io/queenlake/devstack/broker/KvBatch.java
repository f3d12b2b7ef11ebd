package io.queenlake.devstack.broker;

import io.queenlake.devstack.broker.JournalEntry.KvWritten;
import io.queenlake.devstack.broker.KvOperation.Kind;
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
        void renderTo(JsonOut out);
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
            out.ascii("{\"results\":[");
            for (int i = 0; i < results.length; i++) {
                if (i > 0) {
                    out.raw((byte) ',');
                }
                results[i].renderTo(out);
            }
            out.ascii("]}");
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
            return out -> head(out, op).ascii(",\"applied\":true,\"key\":").string(op.key())
                    .ascii(",\"version\":").nullableNumber(current == null ? null : current.version()).raw((byte) '}');
        }
        long expiresAt = op.forever() ? 0 : stamp + op.ttlSeconds() * 1_000_000L;
        KvRow row = new KvRow(op.value(), change.nextKvVersion(), expiresAt, stamp);
        pending.put(slot, new Pending(op.ns(), op.key(), row));
        return out -> head(out, op).ascii(",\"applied\":true,\"key\":").string(op.key())
                .ascii(",\"value\":").raw(row.value()).ascii(",\"version\":").number(row.version()).raw((byte) '}');
    }

    private static void getResult(JsonOut out, KvOperation op, KvRow row) {
        head(out, op).ascii(",\"found\":").bool(row != null).ascii(",\"key\":").string(op.key());
        if (row == null) {
            out.ascii(",\"value\":null,\"version\":null,\"expiresAt\":null,\"updatedAt\":null}");
            return;
        }
        rowFields(out, row, true);
        out.raw((byte) '}');
    }

    private static void lostResult(JsonOut out, KvOperation op, String reason, KvRow winner) {
        head(out, op).ascii(",\"applied\":false,\"key\":").string(op.key()).ascii(",\"reason\":").string(reason)
                .ascii(",\"value\":");
        if (winner == null) {
            out.nul().ascii(",\"version\":null}");
        } else {
            out.raw(winner.value()).ascii(",\"version\":").number(winner.version()).raw((byte) '}');
        }
    }

    private static void rolledBack(JsonOut out, int index, String reason, KvRow winner) {
        out.ascii("{\"ok\":false,\"reason\":\"kv_precondition\",\"failedIndex\":").number(index)
                .ascii(",\"kvReason\":").string(reason).ascii(",\"version\":")
                .nullableNumber(winner == null ? null : winner.version()).ascii(",\"value\":");
        if (winner == null) {
            out.nul();
        } else {
            out.raw(winner.value());
        }
        out.raw((byte) '}');
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
            head(out, op).ascii(",\"rows\":");
            rows(out, rows, false);
            out.ascii(",\"missing\":[");
            for (int i = 0; i < missing.size(); i++) {
                if (i > 0) {
                    out.raw((byte) ',');
                }
                out.string(missing.get(i));
            }
            out.ascii("],\"truncated\":").bool(cut).raw((byte) '}');
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
            head(out, op).ascii(",\"rows\":");
            rows(out, rows, op.keysOnly());
            out.ascii(",\"truncated\":").bool(cut).ascii(",\"nextAfter\":").string(nextAfter).raw((byte) '}');
        };
    }

    private boolean withinBudget(KvRow row) {
        readBytes += row.value().length;
        return readBytes <= READ_BUDGET_BYTES;
    }

    private static void rows(JsonOut out, List<Map.Entry<String, KvRow>> rows, boolean keysOnly) {
        out.raw((byte) '[');
        for (int i = 0; i < rows.size(); i++) {
            if (i > 0) {
                out.raw((byte) ',');
            }
            out.raw((byte) '{').field("key").string(rows.get(i).getKey());
            rowFields(out, rows.get(i).getValue(), !keysOnly);
            out.raw((byte) '}');
        }
        out.raw((byte) ']');
    }

    private static void rowFields(JsonOut out, KvRow row, boolean withValue) {
        if (withValue) {
            out.ascii(",\"value\":").raw(row.value());
        }
        out.ascii(",\"version\":").number(row.version()).ascii(",\"expiresAt\":")
                .string(row.expiresAtMicros() == 0 ? null : BrokerTime.isoOffset(row.expiresAtMicros()))
                .ascii(",\"updatedAt\":").string(BrokerTime.isoOffset(row.updatedAtMicros()));
    }

    private static JsonOut head(JsonOut out, KvOperation op) {
        return out.ascii("{\"index\":").number(op.index()).ascii(",\"op\":").string(op.kind().wire);
    }
}
