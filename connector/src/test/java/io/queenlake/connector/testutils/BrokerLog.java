package io.queenlake.connector.testutils;

import io.queenlake.broker.client.EntryError;
import io.queenlake.broker.client.FetchEntry;
import io.queenlake.broker.client.FetchRequest;
import io.queenlake.broker.client.FetchedPartition;
import io.queenlake.broker.client.FetchedRecord;
import io.queenlake.broker.client.QueenClient;
import io.queenlake.format.model.LogRecord;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a queue's log back from the broker, every partition from its {@code logStart} to its end,
 * as the {@link LogRecord}s the lake must hold: the expected side of the lake checker. It goes
 * through the wire client only, not through the code under test.
 */
public final class BrokerLog {

    private static final int MAX_BYTES = 8 * 1024 * 1024;
    private static final int MAX_CALLS = 10_000;

    private BrokerLog() {}

    /** Every stored record of {@code partitions} of {@code queue}; a partition never pushed to holds none. */
    public static List<LogRecord> read(QueenClient client, String queue, List<String> partitions) {
        List<LogRecord> all = new ArrayList<>();
        for (String partition : partitions) {
            all.addAll(readPartition(client, queue, partition));
        }
        return all;
    }

    private static List<LogRecord> readPartition(QueenClient client, String queue, String partition) {
        List<LogRecord> records = new ArrayList<>();
        long offset = 0;
        for (int call = 0; call < MAX_CALLS; call++) {
            FetchedPartition answer = client.fetch(FetchRequest.immediate(
                    List.of(FetchEntry.of(queue, partition, offset, MAX_BYTES)))).get(0);
            if (answer.error() == EntryError.UNKNOWN_TOPIC_OR_PARTITION) {
                return records;
            }
            if (answer.error() == EntryError.OFFSET_OUT_OF_RANGE && offset < answer.logStartOffset()) {
                offset = answer.logStartOffset(); // retention trimmed the head: the log starts later
                continue;
            }
            if (answer.error() != EntryError.NONE) {
                throw new IllegalStateException("reading back " + queue + "/" + partition + " at offset " + offset
                        + " failed with " + answer.error() + " (log " + answer.logStartOffset() + ".."
                        + answer.highWatermark() + ")");
            }
            if (answer.records().isEmpty()) {
                if (offset >= answer.highWatermark()) {
                    return records;
                }
                offset = Math.max(offset, answer.logStartOffset());
                continue;
            }
            for (FetchedRecord r : answer.records()) {
                records.add(new LogRecord(partition, "", r.offset(), r.transactionId(), r.tsMicros(), r.payload()));
                offset = r.offset() + 1;
            }
        }
        throw new IllegalStateException("reading back " + queue + "/" + partition + " took more than " + MAX_CALLS
                + " fetch calls; stopped at offset " + offset);
    }
}
