package io.queenlake.job.window;

import io.queenlake.format.model.LogRecord;
import io.queenlake.format.model.LostRange;
import io.queenlake.source.QueueRecord;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * One open window's records in arrival order, held as the lake writes them: the log records, and
 * apart from them the lost ranges the few records after a gap carry. Holding the source's
 * {@link QueueRecord}s instead kept one more object per record alive for the window's whole life
 * (minutes, a million records), which every young collection copied and scanned again.
 */
final class OpenRecords {

    private final ArrayList<LogRecord> records;
    /** The records that carry lost ranges, by identity: few, and each record is one instance. */
    private final Map<LogRecord, List<LostRange>> lost = new IdentityHashMap<>();
    /** The records' size-cut weight ({@link LogRecord#weight()}), summed while each payload is at hand. */
    private long weight;

    OpenRecords() {
        this.records = new ArrayList<>();
    }

    /** Sized for {@code capacity} records: growing copies the whole list. */
    OpenRecords(int capacity) {
        this.records = new ArrayList<>(capacity);
    }

    static OpenRecords of(List<QueueRecord> records) {
        OpenRecords open = new OpenRecords(records.size());
        records.forEach(open::add);
        return open;
    }

    void add(QueueRecord r) {
        add(r.record(), r.lostBefore());
    }

    void add(LogRecord r, List<LostRange> lostBefore) {
        records.add(r);
        weight += r.weight();
        if (!lostBefore.isEmpty()) {
            lost.put(r, lostBefore);
        }
    }

    int size() {
        return records.size();
    }

    boolean isEmpty() {
        return records.isEmpty();
    }

    /** What the size cut weighs the records at, in total. */
    long weight() {
        return weight;
    }

    /** The records in arrival order; the list is this holder's, not a copy. */
    List<LogRecord> records() {
        return Collections.unmodifiableList(records);
    }

    /** The lost ranges riding on {@code r}, empty for most records. */
    List<LostRange> lostBefore(LogRecord r) {
        return lost.isEmpty() ? List.of() : lost.getOrDefault(r, List.of());
    }

    /** Every record that carries lost ranges, with them. */
    Map<LogRecord, List<LostRange>> lost() {
        return Collections.unmodifiableMap(lost);
    }

    /** Each record in arrival order with the lost ranges riding on it. */
    void forEach(BiConsumer<LogRecord, List<LostRange>> action) {
        for (LogRecord r : records) {
            action.accept(r, lostBefore(r));
        }
    }

    void clear() {
        records.clear();
        lost.clear();
        weight = 0;
    }
}
