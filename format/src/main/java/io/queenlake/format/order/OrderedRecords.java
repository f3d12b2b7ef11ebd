package io.queenlake.format.order;

import io.queenlake.format.model.LogRecord;
import java.util.List;

/**
 * A window's records in lake order, with the span each partition name covers in that order (one
 * span per name, all its incarnations together, names in UTF-8 byte order) and the window's lowest
 * and highest stamps: what the encoder needs to cut objects and count the manifest without another
 * pass over the records.
 */
public record OrderedRecords(List<LogRecord> records, List<PartitionSpan> partitions, long minTs, long maxTs) {

    /** The records {@code [from, to)} of {@link #records()} that carry the name {@code partition}. */
    public record PartitionSpan(String partition, int from, int to) {}
}
