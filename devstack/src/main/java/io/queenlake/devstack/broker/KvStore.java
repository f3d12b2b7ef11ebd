package io.queenlake.devstack.broker;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * One tenant's KV documents by namespace, keys ordered by their UTF-8 bytes (as the broker's
 * store orders them). Expired rows stay until overwritten but read as absent. Callers hold the
 * broker's write lock.
 */
final class KvStore {

    /** Code point order equals UTF-8 byte order, unlike {@link String#compareTo}. */
    static final Comparator<String> UTF8_ORDER = (a, b) -> {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i);
            int cb = b.codePointAt(j);
            if (ca != cb) {
                return Integer.compare(ca, cb);
            }
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Integer.compare(a.length() - i, b.length() - j);
    };

    private final Map<String, NavigableMap<String, KvRow>> namespaces = new TreeMap<>();

    /** The row as stored, expired or not, or null. */
    KvRow stored(String ns, String key) {
        NavigableMap<String, KvRow> rows = namespaces.get(ns);
        return rows == null ? null : rows.get(key);
    }

    /** The row unless it is missing or expired at {@code now}. */
    KvRow live(String ns, String key, long nowMicros) {
        KvRow row = stored(ns, key);
        return row == null || row.expiredAt(nowMicros) ? null : row;
    }

    void put(String ns, String key, KvRow row) {
        if (row == null) {
            NavigableMap<String, KvRow> rows = namespaces.get(ns);
            if (rows != null) {
                rows.remove(key);
            }
            return;
        }
        namespaces.computeIfAbsent(ns, n -> new TreeMap<>(UTF8_ORDER)).put(key, row);
    }

    /** Live rows whose key starts with {@code prefix} and sorts after {@code after} (null = from the start), in key order. */
    List<Map.Entry<String, KvRow>> scan(String ns, String prefix, String after, int limit, long nowMicros) {
        List<Map.Entry<String, KvRow>> out = new ArrayList<>();
        NavigableMap<String, KvRow> rows = namespaces.get(ns);
        if (rows == null) {
            return out;
        }
        NavigableMap<String, KvRow> tail = after != null && UTF8_ORDER.compare(after, prefix) >= 0
                ? rows.tailMap(after, false)
                : rows.tailMap(prefix, true);
        for (Map.Entry<String, KvRow> e : tail.entrySet()) {
            if (!e.getKey().startsWith(prefix) || out.size() >= limit) {
                break;
            }
            if (!e.getValue().expiredAt(nowMicros)) {
                out.add(Map.entry(e.getKey(), e.getValue()));
            }
        }
        return out;
    }

    /** Every live row, for a snapshot. */
    void forEachLive(long nowMicros, RowVisitor visitor) {
        namespaces.forEach((ns, rows) -> rows.forEach((key, row) -> {
            if (!row.expiredAt(nowMicros)) {
                visitor.visit(ns, key, row);
            }
        }));
    }

    interface RowVisitor {
        void visit(String ns, String key, KvRow row);
    }
}
