package io.queenlake.format.parquet;

import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Types;

/**
 * Owns the Parquet envelope schema of the lake contract (docs/LAKE-FORMAT.md, "Parquet"): one row per
 * record, no queue or tenant column (readers take them from the Hive directories).
 */
final class ParquetEnvelopeSchema {
    static final String PARTITION = "partition";
    static final String OFFSET = "offset";
    static final String TRANSACTION_ID = "transaction_id";
    static final String TS = "ts";
    static final String PAYLOAD = "payload";

    static final MessageType SCHEMA = Types.buildMessage()
            .required(PrimitiveTypeName.BINARY).as(LogicalTypeAnnotation.stringType()).named(PARTITION)
            .required(PrimitiveTypeName.INT64).named(OFFSET)
            .required(PrimitiveTypeName.BINARY).as(LogicalTypeAnnotation.stringType()).named(TRANSACTION_ID)
            .required(PrimitiveTypeName.INT64)
            .as(LogicalTypeAnnotation.timestampType(true, TimeUnit.MICROS))
            .named(TS)
            .optional(PrimitiveTypeName.BINARY).as(LogicalTypeAnnotation.stringType()).named(PAYLOAD)
            .named("queen_record");

    private ParquetEnvelopeSchema() {}
}
