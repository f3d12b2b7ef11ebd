package io.queenlake.source;

import io.queenlake.format.model.LogRecord;
import io.queenlake.format.model.LostRange;
import java.util.List;
import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;

/**
 * What QueenSource emits: one record of one queue, plus the offsets its partition lost just before
 * it (retention, or a replaced incarnation). Lost ranges travel with the first record after the
 * gap, so they land in the manifest of the window that holds that record.
 */
@PublicEvolving
public record QueueRecord(String queue, LogRecord record, List<LostRange> lostBefore) implements QueueEvent {

    public QueueRecord {
        Objects.requireNonNull(queue, "queue");
        Objects.requireNonNull(record, "record");
        lostBefore = lostBefore == null ? List.of() : List.copyOf(lostBefore);
    }

    public static QueueRecord of(String queue, LogRecord record) {
        return new QueueRecord(queue, record, List.of());
    }
}
