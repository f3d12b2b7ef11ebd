package io.queenlake.source.reader;

import java.util.List;
import org.apache.flink.connector.base.source.reader.RecordsBySplits;
import org.apache.flink.connector.base.source.reader.RecordsWithSplitIds;

/** One fetch round's items per split, in log order, plus the splits that finished in it. */
final class ReadBatch {

    private final RecordsBySplits.Builder<ReadItem> builder = new RecordsBySplits.Builder<>();
    private boolean empty = true;

    void add(String splitId, List<ReadItem> items) {
        if (!items.isEmpty()) {
            builder.addAll(splitId, items);
            empty = false;
        }
    }

    void finish(String splitId) {
        builder.addFinishedSplit(splitId);
        empty = false;
    }

    boolean isEmpty() {
        return empty;
    }

    RecordsWithSplitIds<ReadItem> build() {
        return builder.build();
    }
}
