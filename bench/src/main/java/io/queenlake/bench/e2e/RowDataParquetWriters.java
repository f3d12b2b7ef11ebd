package io.queenlake.bench.e2e;

import io.queenlake.format.model.LogRecord;
import io.queenlake.source.QueueRecord;
import java.io.IOException;
import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.formats.parquet.ParquetWriterFactory;
import org.apache.flink.formats.parquet.row.ParquetRowDataBuilder;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.hadoop.conf.Configuration;

/**
 * The bulk format a Flink user writes for FileSink: flink-parquet's RowData writer (the one the
 * filesystem connector uses for {@code format=parquet}) with Flink's defaults except the codec,
 * zstd as the lake's, and the same five columns as FormatBench's baseline. Converting a record to
 * {@code RowData} happens inside the writer, as a user's factory would do it.
 */
final class RowDataParquetWriters implements BulkWriter.Factory<QueueRecord> {

    private static final RowType ROW = RowType.of(
            new LogicalType[] {
                new VarCharType(false, VarCharType.MAX_LENGTH),
                new BigIntType(false),
                new VarCharType(false, VarCharType.MAX_LENGTH),
                new LocalZonedTimestampType(false, 6),
                new VarCharType(true, VarCharType.MAX_LENGTH)
            },
            new String[] {"partition", "offset", "transaction_id", "ts", "payload"});

    private final ParquetWriterFactory<RowData> rows;

    RowDataParquetWriters() {
        Configuration conf = new Configuration(false);
        conf.set("parquet.compression", "ZSTD");
        this.rows = ParquetRowDataBuilder.createWriterFactory(ROW, conf, true);
    }

    @Override
    public BulkWriter<QueueRecord> create(FSDataOutputStream out) throws IOException {
        BulkWriter<RowData> writer = rows.create(out);
        return new BulkWriter<>() {
            @Override
            public void addElement(QueueRecord element) throws IOException {
                LogRecord r = element.record();
                writer.addElement(GenericRowData.of(
                        StringData.fromString(r.partition()),
                        r.offset(),
                        StringData.fromString(r.transactionId()),
                        TimestampData.fromEpochMillis(
                                Math.floorDiv(r.tsMicros(), 1000), (int) Math.floorMod(r.tsMicros(), 1000) * 1000),
                        r.payload().length == 0 ? null : StringData.fromBytes(r.payload())));
            }

            @Override
            public void flush() throws IOException {
                writer.flush();
            }

            @Override
            public void finish() throws IOException {
                writer.finish();
            }
        };
    }
}
