package io.queenlake.devstack.catalog;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;

import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;

/**
 * The shape of a queue's table as the job creates it (the job module's {@code LakeTableLayout},
 * which devstack cannot see): the lake's columns, partitioned by the hour of {@code ts}.
 */
final class QueueTableShape {

    static final Schema SCHEMA = new Schema(
            required(1, "partition", Types.StringType.get()),
            required(2, "offset", Types.LongType.get()),
            required(3, "transaction_id", Types.StringType.get()),
            required(4, "ts", Types.TimestampType.withZone()),
            optional(5, "payload", Types.StringType.get()));
    static final PartitionSpec BY_HOUR = PartitionSpec.builderFor(SCHEMA).hour("ts").build();

    private QueueTableShape() {}
}
