package io.queenlake.source.serde;

import io.queenlake.format.model.LogRecord;
import io.queenlake.format.model.LostRange;
import io.queenlake.source.QueueRecord;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.flink.api.common.typeutils.SerializerTestBase;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/** Flink's own serializer contract (copy, sequences, snapshot and restore, duplicate) for QueueRecord. */
class QueueRecordSerializerTest extends SerializerTestBase<QueueRecord> {

    @Override
    protected TypeSerializer<QueueRecord> createSerializer() {
        return QueueRecordSerializer.INSTANCE;
    }

    @Override
    protected int getLength() {
        return -1;
    }

    @Override
    protected Class<QueueRecord> getTypeClass() {
        return QueueRecord.class;
    }

    @Override
    protected QueueRecord[] getTestData() {
        byte[] big = "y".repeat(70_000).getBytes(StandardCharsets.UTF_8);
        return new QueueRecord[] {
            QueueRecord.of("orders", new LogRecord("cust-1", "0192a", 0, "t-1", 1_791_007_257_501_942L,
                    "{\"order\":1,\"total\":42.00}".getBytes(StandardCharsets.UTF_8))),
            QueueRecord.of("", new LogRecord("", "", 0, "", 0, null)),
            new QueueRecord("caffè/q", new LogRecord("é𝄞 p", "id", Long.MAX_VALUE, "x".repeat(70_000), -1, big),
                    List.of(new LostRange("é𝄞 p", 0, 9), new LostRange("é𝄞 p", 11, 11))),
            QueueRecord.of("orders", new LogRecord("cust-2", "0192b", 17, "", 5, new byte[] {0, (byte) 0xff, '\n'})),
            QueueRecord.of("orders", new LogRecord("cust-3", "0192c", 3, "t-3", 6, "[1]".getBytes(StandardCharsets.UTF_8), true)),
            QueueRecord.of("orders", new LogRecord("cust-4", "0192d", 4, "t-4", 7, null, true)),
        };
    }
}
