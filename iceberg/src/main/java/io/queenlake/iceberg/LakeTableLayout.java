package io.queenlake.iceberg;

import io.queenlake.format.model.Align;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.mapping.MappingUtil;
import org.apache.iceberg.mapping.NameMappingParser;
import org.apache.iceberg.types.Types;

/**
 * The Iceberg shape of a queue's table: the lake's five Parquet columns with Iceberg types
 * ({@code ts} a {@code timestamptz} in microseconds), partitioned by {@code hour(ts)} (by
 * {@code day(ts)} with {@code QUEEN_S3_ALIGN=day}; unpartitioned with {@code none}, whose windows
 * may cross hours), sorted by partition then offset as the objects are. The lake's Parquet carries
 * no field ids (LAKE-FORMAT.md pins its bytes), so the table maps columns by name
 * ({@code schema.name-mapping.default}).
 */
final class LakeTableLayout {

    static final int PARTITION_ID = 1;
    static final int OFFSET_ID = 2;
    static final int TRANSACTION_ID = 3;
    static final int TS_ID = 4;
    static final int PAYLOAD_ID = 5;

    static final Schema SCHEMA = new Schema(
            Types.NestedField.required(PARTITION_ID, "partition", Types.StringType.get()),
            Types.NestedField.required(OFFSET_ID, "offset", Types.LongType.get()),
            Types.NestedField.required(TRANSACTION_ID, "transaction_id", Types.StringType.get()),
            Types.NestedField.required(TS_ID, "ts", Types.TimestampType.withZone()),
            Types.NestedField.optional(PAYLOAD_ID, "payload", Types.StringType.get()));

    /** Table properties naming what mirrors into it (the Parquet footer's key names). */
    static final String QUEUE_PROPERTY = "queen.queue";
    static final String TENANT_PROPERTY = "queen.tenant";
    static final String SINK_PROPERTY = "queen.sink";

    private LakeTableLayout() {}

    static PartitionSpec spec(Align align) {
        return switch (align) {
            case HOUR -> PartitionSpec.builderFor(SCHEMA).hour("ts").build();
            case DAY -> PartitionSpec.builderFor(SCHEMA).day("ts").build();
            case NONE -> PartitionSpec.unpartitioned();
        };
    }

    static SortOrder sortOrder() {
        return SortOrder.builderFor(SCHEMA).asc("partition").asc("offset").build();
    }

    static Map<String, String> properties(String queue, String tenant, String sink) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put(QUEUE_PROPERTY, queue);
        p.put(TENANT_PROPERTY, tenant);
        p.put(SINK_PROPERTY, sink);
        p.put(TableProperties.DEFAULT_FILE_FORMAT, "parquet");
        p.put(TableProperties.DEFAULT_NAME_MAPPING, NameMappingParser.toJson(MappingUtil.create(SCHEMA)));
        p.put(TableProperties.FORMAT_VERSION, "2");
        return p;
    }

    /**
     * Whether a table still has the lake's five columns with their ids and types, so the lake's
     * objects read as the rows they hold; columns added by someone else do no harm.
     */
    static boolean holdsLakeColumns(Schema schema) {
        for (Types.NestedField f : SCHEMA.columns()) {
            Types.NestedField now = schema.findField(f.fieldId());
            if (now == null || !now.name().equals(f.name()) || !now.type().equals(f.type())) {
                return false;
            }
        }
        return true;
    }
}
