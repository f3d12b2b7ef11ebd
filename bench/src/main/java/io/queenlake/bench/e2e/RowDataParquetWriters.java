package io.queenlake.bench.e2e;

import io.queenlake.bench.FlinkRowDataParquet;
import io.queenlake.source.QueueRecord;
import java.io.IOException;
import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.formats.parquet.ParquetWriterFactory;
import org.apache.flink.table.data.RowData;

/**
 * The bulk format a Flink user writes for FileSink: flink-parquet's RowData writer (the one the
 * filesystem connector uses for {@code format=parquet}) with Flink's defaults except the codec,
 * zstd as the lake's, and the same five columns as FormatBench's baseline. Converting a record to
 * {@code RowData} happens inside the writer, as a user's factory would do it.
 */
final class RowDataParquetWriters implements BulkWriter.Factory<QueueRecord> {

    private final ParquetWriterFactory<RowData> rows = FlinkRowDataParquet.writerFactory("ZSTD");

    @Override
    public BulkWriter<QueueRecord> create(FSDataOutputStream out) throws IOException {
        BulkWriter<RowData> writer = rows.create(out);
        return new BulkWriter<>() {
            @Override
            public void addElement(QueueRecord element) throws IOException {
                writer.addElement(FlinkRowDataParquet.rowOf(element.record()));
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
