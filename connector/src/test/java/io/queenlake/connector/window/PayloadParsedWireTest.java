package io.queenlake.connector.window;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.format.model.LogRecord;
import io.queenlake.format.window.WindowInput;
import io.queenlake.source.QueueRecord;
import io.queenlake.source.serde.QueueRecordSerializer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.types.StringValue;
import org.junit.jupiter.api.Test;

/**
 * Whether a payload was parsed already travels with the record between tasks and through state,
 * and state written before that fact was carried reads back as "not parsed", so the encoder checks
 * those payloads itself.
 */
class PayloadParsedWireTest {

    private static final byte[] PAYLOAD = "{\"order\":1,\"total\":42.00}".getBytes(StandardCharsets.UTF_8);

    private static QueueRecord roundTrip(QueueRecord record) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(64);
        QueueRecordSerializer.INSTANCE.serialize(record, out);
        return QueueRecordSerializer.INSTANCE.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));
    }

    @Test
    void aParsedPayloadStaysParsedAndAnUncheckedOneStaysUnchecked() throws IOException {
        QueueRecord parsed = QueueRecord.of("orders", new LogRecord("cust-1", "id", 3, "t", 9, PAYLOAD, true));
        QueueRecord unchecked = QueueRecord.of("orders", new LogRecord("cust-1", "id", 4, "t", 9, PAYLOAD, false));

        QueueRecord parsedBack = roundTrip(parsed);
        QueueRecord uncheckedBack = roundTrip(unchecked);

        assertThat(parsedBack.record().payloadParsed()).isTrue();
        assertThat(parsedBack.record().payload()).isEqualTo(PAYLOAD);
        assertThat(uncheckedBack.record().payloadParsed()).isFalse();
        assertThat(uncheckedBack.record().payload()).isEqualTo(PAYLOAD);
    }

    @Test
    void aClosedWindowKeepsEachRecordsParsedFact() throws IOException {
        WindowInput input = new WindowInput("t", "orders", 1, 0, 100, List.of(
                new LogRecord("cust-1", "id", 0, "t", 9, PAYLOAD, true),
                new LogRecord("cust-1", "id", 1, "t", 9, PAYLOAD, false)), List.of());
        DataOutputSerializer out = new DataOutputSerializer(64);
        ClosedWindowSerializer.INSTANCE.serialize(new ClosedWindow(input, Optional.empty()), out);

        ClosedWindow back = ClosedWindowSerializer.INSTANCE.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));

        List<LogRecord> records = ((WindowInput) back.window()).records();
        assertThat(records).extracting(LogRecord::payloadParsed).containsExactly(true, false);
        assertThat(records).isEqualTo(input.records());
    }

    @Test
    void stateWrittenBeforeTheFlagReadsBackAsNotParsed() throws IOException {
        // The wire form as it was: queue, partition, id, offset, transaction, stamp, length, bytes, no lost ranges.
        DataOutputSerializer old = new DataOutputSerializer(64);
        StringValue.writeString("orders", old);
        StringValue.writeString("cust-1", old);
        StringValue.writeString("id", old);
        old.writeLong(3);
        StringValue.writeString("t", old);
        old.writeLong(9);
        old.writeInt(PAYLOAD.length);
        old.write(PAYLOAD);
        old.writeInt(0);

        QueueRecord back = QueueRecordSerializer.INSTANCE.deserialize(new DataInputDeserializer(old.getCopyOfBuffer()));

        assertThat(back.record()).isEqualTo(new LogRecord("cust-1", "id", 3, "t", 9, PAYLOAD));
        assertThat(back.record().payloadParsed()).isFalse();
    }
}
