package io.queenlake.format.parquet;

import io.queenlake.format.model.LogRecord;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Seeded records already in lake order (ASCII partition names, so UTF-8 order is name order). */
final class EnvelopeRecords {
    static final long BASE_TS = 1_791_007_200_000_000L;

    private EnvelopeRecords() {}

    /** {@code count} records over {@code partitions} partitions; every 7th payload is empty. */
    static List<LogRecord> lakeOrdered(long seed, int count, int partitions) {
        Random random = new Random(seed);
        List<LogRecord> records = new ArrayList<>(count);
        int perPartition = (count + partitions - 1) / partitions;
        for (int i = 0; i < count; i++) {
            int p = i / perPartition;
            long offset = i % perPartition;
            byte[] payload = i % 7 == 3
                    ? new byte[0]
                    : ("{\"order\":" + random.nextInt(1_000_000) + ",\"total\":42.00}").getBytes(StandardCharsets.UTF_8);
            records.add(new LogRecord(
                    String.format("p-%04d", p),
                    "id-" + p,
                    offset,
                    "tx-" + random.nextInt(1000),
                    BASE_TS + offset * 1_000 + random.nextInt(1_000),
                    payload));
        }
        return records;
    }
}
