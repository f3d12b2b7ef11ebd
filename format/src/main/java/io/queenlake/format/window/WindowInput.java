package io.queenlake.format.window;

import io.queenlake.format.model.LogRecord;
import io.queenlake.format.model.LostRange;
import java.util.List;

/**
 * One closed window to encode: which queue, its number and bounds, its records (any arrival order
 * across partitions) and the lost ranges found while reading it.
 */
public record WindowInput(
        String tenant, String queue, long k, long tStart, long tEnd, List<LogRecord> records, List<LostRange> lost)
        implements WindowContent {

    public WindowInput {
        records = List.copyOf(records);
        lost = List.copyOf(lost);
        WindowContent.requireNumbered(tenant, queue, k, tStart, tEnd, records.isEmpty());
        for (LogRecord r : records) {
            if (r.tsMicros() < tStart || r.tsMicros() >= tEnd) {
                throw new IllegalArgumentException("record " + r + " lies outside window " + k + " [" + tStart + ", "
                        + tEnd + ") of queue '" + queue + "'");
            }
        }
    }

    @Override
    public int recordCount() {
        return records.size();
    }

    @Override
    public long weight() {
        long weight = 0;
        for (LogRecord r : records) {
            weight += r.weight();
        }
        return weight;
    }
}
