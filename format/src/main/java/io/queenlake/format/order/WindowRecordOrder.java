package io.queenlake.format.order;

import io.queenlake.format.model.LogRecord;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Puts a window's records into lake order whatever order they arrived in: partition name in
 * UTF-8 byte order; where one name has two incarnations in the window, the older one first (the
 * lower stamp of its lowest-offset record; equal stamps fall back to the incarnation id in UTF-8
 * order, so the answer never depends on arrival); then offset.
 */
public final class WindowRecordOrder {

    private WindowRecordOrder() {}

    public static List<LogRecord> inLakeOrder(Collection<LogRecord> records) {
        Map<Incarnation, long[]> firstStamp = firstStamps(records);
        boolean manyIncarnations = firstStamp.size() > distinctNames(firstStamp);
        List<LogRecord> sorted = new ArrayList<>(records);
        Comparator<LogRecord> byName = (x, y) -> Utf8ByteOrder.INSTANCE.compare(x.partition(), y.partition());
        Comparator<LogRecord> order = manyIncarnations
                ? byName.thenComparing((x, y) -> compareIncarnations(x, y, firstStamp))
                : byName;
        sorted.sort(order.thenComparingLong(LogRecord::offset));
        return sorted;
    }

    private record Incarnation(String partition, String partitionId) {}

    private static Map<Incarnation, long[]> firstStamps(Collection<LogRecord> records) {
        // value: {lowest offset seen, its stamp}
        Map<Incarnation, long[]> first = new HashMap<>();
        for (LogRecord r : records) {
            long[] seen = first.computeIfAbsent(new Incarnation(r.partition(), r.partitionId()),
                    i -> new long[] {Long.MAX_VALUE, Long.MAX_VALUE});
            if (r.offset() < seen[0] || (r.offset() == seen[0] && r.tsMicros() < seen[1])) {
                seen[0] = r.offset();
                seen[1] = r.tsMicros();
            }
        }
        return first;
    }

    private static long distinctNames(Map<Incarnation, long[]> incarnations) {
        return incarnations.keySet().stream().map(Incarnation::partition).distinct().count();
    }

    private static int compareIncarnations(LogRecord x, LogRecord y, Map<Incarnation, long[]> firstStamp) {
        if (x.partitionId().equals(y.partitionId())) {
            return 0;
        }
        long tx = firstStamp.get(new Incarnation(x.partition(), x.partitionId()))[1];
        long ty = firstStamp.get(new Incarnation(y.partition(), y.partitionId()))[1];
        if (tx != ty) {
            return Long.compare(tx, ty);
        }
        return Utf8ByteOrder.INSTANCE.compare(x.partitionId(), y.partitionId());
    }
}
