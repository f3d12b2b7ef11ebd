package io.queenlake.format.parquet;

import static io.queenlake.format.parquet.ParquetEnvelopeSchema.OFFSET;
import static io.queenlake.format.parquet.ParquetEnvelopeSchema.PARTITION;
import static io.queenlake.format.parquet.ParquetEnvelopeSchema.PAYLOAD;
import static io.queenlake.format.parquet.ParquetEnvelopeSchema.SCHEMA;
import static io.queenlake.format.parquet.ParquetEnvelopeSchema.TRANSACTION_ID;
import static io.queenlake.format.parquet.ParquetEnvelopeSchema.TS;

import io.queenlake.format.jsonl.PayloadText;
import io.queenlake.format.model.LogRecord;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.conf.ParquetConfiguration;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;

/**
 * Turns one {@link LogRecord} into one envelope row. The payload goes in as the broker's bytes
 * (no String round trip, no newline replacement); an empty payload is NULL, and one that is not a
 * JSON text becomes the same JSON string JSONL writes ({@link PayloadText}). Footer metadata is
 * not its business: {@link ParquetWindowWriter} writes it in the contract's order.
 */
final class EnvelopeWriteSupport extends WriteSupport<LogRecord> {
    private static final int PARTITION_INDEX = SCHEMA.getFieldIndex(PARTITION);
    private static final int OFFSET_INDEX = SCHEMA.getFieldIndex(OFFSET);
    private static final int TRANSACTION_ID_INDEX = SCHEMA.getFieldIndex(TRANSACTION_ID);
    private static final int TS_INDEX = SCHEMA.getFieldIndex(TS);
    private static final int PAYLOAD_INDEX = SCHEMA.getFieldIndex(PAYLOAD);

    private RecordConsumer consumer;
    // Records arrive grouped by partition, so the name is encoded once per run, not once per row.
    private String lastPartition;
    private Binary lastPartitionBytes;

    @Override
    public WriteContext init(Configuration configuration) {
        return new WriteContext(SCHEMA, Map.of());
    }

    @Override
    public WriteContext init(ParquetConfiguration configuration) {
        return new WriteContext(SCHEMA, Map.of());
    }

    @Override
    public void prepareForWrite(RecordConsumer recordConsumer) {
        this.consumer = recordConsumer;
    }

    @Override
    public void write(LogRecord record) {
        consumer.startMessage();

        consumer.startField(PARTITION, PARTITION_INDEX);
        consumer.addBinary(partitionBytes(record.partition()));
        consumer.endField(PARTITION, PARTITION_INDEX);

        consumer.startField(OFFSET, OFFSET_INDEX);
        consumer.addLong(record.offset());
        consumer.endField(OFFSET, OFFSET_INDEX);

        consumer.startField(TRANSACTION_ID, TRANSACTION_ID_INDEX);
        consumer.addBinary(utf8(record.transactionId()));
        consumer.endField(TRANSACTION_ID, TRANSACTION_ID_INDEX);

        consumer.startField(TS, TS_INDEX);
        consumer.addLong(record.tsMicros());
        consumer.endField(TS, TS_INDEX);

        byte[] payload = PayloadText.isRewritten(record) ? PayloadText.asJsonString(record.payload()) : record.payload();
        if (payload.length > 0) {
            consumer.startField(PAYLOAD, PAYLOAD_INDEX);
            consumer.addBinary(Binary.fromConstantByteArray(payload));
            consumer.endField(PAYLOAD, PAYLOAD_INDEX);
        }

        consumer.endMessage();
    }

    private Binary partitionBytes(String partition) {
        if (!partition.equals(lastPartition)) {
            lastPartition = partition;
            lastPartitionBytes = utf8(partition);
        }
        return lastPartitionBytes;
    }

    // Array-backed binaries hash and copy faster in parquet-java than its ByteBuffer-backed fromString.
    private static Binary utf8(String text) {
        return Binary.fromConstantByteArray(text.getBytes(StandardCharsets.UTF_8));
    }
}
