package io.queenlake.source.reader;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.connector.base.source.reader.RecordsBySplits;
import org.apache.flink.connector.base.source.reader.RecordsWithSplitIds;

/** One fetch round's items per split, in log order, plus the splits that finished in it. */
final class ReadBatch {

    private final RecordsBySplits.Builder<ReadItem> builder = new RecordsBySplits.Builder<>();
    private boolean empty = true;

    /**
     * Adds a copy of {@code items}: Flink's builder keeps the first collection it is given for a
     * split and appends later ones to it, so handing it the caller's list would let the caller's
     * next change (a cleared pending list, an immutable list) reach the batch.
     */
    void add(String splitId, List<ReadItem> items) {
        if (!items.isEmpty()) {
            builder.addAll(splitId, new ArrayList<>(items));
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
