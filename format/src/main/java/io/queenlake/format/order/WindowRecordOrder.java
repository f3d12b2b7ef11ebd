package io.queenlake.format.order;

import io.queenlake.format.model.LogRecord;
import java.util.Collection;
import java.util.List;

/**
 * Puts a window's records into lake order whatever order they arrived in: partition name in
 * UTF-8 byte order; where one name has two incarnations in the window, the older one first (the
 * lower stamp of its lowest-offset record; equal stamps fall back to the incarnation id in UTF-8
 * order, so the answer never depends on arrival); then offset. See {@link Incarnations} for how.
 */
public final class WindowRecordOrder {

    private WindowRecordOrder() {}

    public static List<LogRecord> inLakeOrder(Collection<LogRecord> records) {
        return order(records).records();
    }

    /** The records in lake order with each name's span and the stamp range. */
    public static OrderedRecords order(Collection<LogRecord> records) {
        return Incarnations.of(records).inLakeOrder();
    }
}
