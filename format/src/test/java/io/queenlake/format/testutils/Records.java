package io.queenlake.format.testutils;

import io.queenlake.format.model.LogRecord;
import java.nio.charset.StandardCharsets;

/** Short ways to make records in tests. */
public final class Records {

    private Records() {}

    public static LogRecord rec(String partition, long offset, long ts, String payload) {
        return new LogRecord(partition, "id-" + partition, offset, "txn-" + offset, ts,
                payload.getBytes(StandardCharsets.UTF_8));
    }

    public static LogRecord rec(String partition, String partitionId, long offset, String txn, long ts, byte[] payload) {
        return new LogRecord(partition, partitionId, offset, txn, ts, payload);
    }

    public static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
