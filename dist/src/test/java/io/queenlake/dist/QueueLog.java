package io.queenlake.dist;

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
 * A queue's whole log read back from the broker through the wire client, as the records the lake
 * must hold (the expected side of the lake checker). No retention runs here: every log starts at 0.
 */
final class QueueLog {

    private QueueLog() {}

    static List<LogRecord> read(QueenClient client, String queue, List<String> partitions) {
        List<LogRecord> records = new ArrayList<>();
        for (String partition : partitions) {
            long offset = 0;
            while (true) {
                FetchedPartition answer = client.fetch(FetchRequest.immediate(
                        List.of(FetchEntry.of(queue, partition, offset, 8 << 20)))).get(0);
                if (answer.error() != EntryError.NONE) {
                    throw new IllegalStateException("reading back " + queue + "/" + partition + " at " + offset
                            + ": " + answer.error());
                }
                if (answer.records().isEmpty()) {
                    break;
                }
                for (FetchedRecord r : answer.records()) {
                    records.add(new LogRecord(partition, "", r.offset(), r.transactionId(), r.tsMicros(), r.payload()));
                    offset = r.offset() + 1;
                }
            }
        }
        return records;
    }
}
