package io.queenlake.bench;

import io.queenlake.format.model.LogRecord;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
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
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.hadoop.conf.Configuration;

/**
 * The baseline a Flink user would reach for: flink-parquet's RowData writer factory (the one
 * Flink's own filesystem connector uses for {@code format=parquet}, no Avro needed), default
 * settings except the codec, writing the same five columns. Converting each record to a
 * {@code RowData} is part of that path, so it is inside the timing.
 */
public final class FlinkRowDataParquet {
    private static final RowType ROW = RowType.of(
            new org.apache.flink.table.types.logical.LogicalType[] {
                new VarCharType(false, VarCharType.MAX_LENGTH),
                new BigIntType(false),
                new VarCharType(false, VarCharType.MAX_LENGTH),
                new LocalZonedTimestampType(false, 6),
                new VarCharType(true, VarCharType.MAX_LENGTH)
            },
            new String[] {"partition", "offset", "transaction_id", "ts", "payload"});

    private final ParquetWriterFactory<RowData> factory;

    /** @param codec {@code SNAPPY} (Flink's default) or {@code ZSTD} */
    FlinkRowDataParquet(String codec) {
        this.factory = writerFactory(codec);
    }

    /** flink-parquet's RowData writer factory for the five columns, Flink's defaults but the codec. */
    public static ParquetWriterFactory<RowData> writerFactory(String codec) {
        Configuration conf = new Configuration(false);
        conf.set("parquet.compression", codec);
        return ParquetRowDataBuilder.createWriterFactory(ROW, conf, true);
    }

    /** The record as the five columns' row, as a user's conversion would build it. */
    public static RowData rowOf(LogRecord r) {
        return GenericRowData.of(
                StringData.fromString(r.partition()),
                r.offset(),
                StringData.fromString(r.transactionId()),
                TimestampData.fromEpochMillis(
                        Math.floorDiv(r.tsMicros(), 1000), (int) Math.floorMod(r.tsMicros(), 1000) * 1000),
                r.payload().length == 0 ? null : StringData.fromBytes(r.payload()));
    }

    void encode(List<LogRecord> records, OutputStream out) throws IOException {
        BulkWriter<RowData> writer = factory.create(new FlinkStream(out));
        for (LogRecord r : records) {
            writer.addElement(rowOf(r));
        }
        writer.finish();
    }

    /** Flink's output stream type over a plain stream. */
    private static final class FlinkStream extends FSDataOutputStream {
        private final OutputStream out;
        private long pos;

        FlinkStream(OutputStream out) {
            this.out = out;
        }

        @Override
        public long getPos() {
            return pos;
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
            pos++;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
            pos += len;
        }

        @Override
        public void flush() throws IOException {
            out.flush();
        }

        @Override
        public void sync() throws IOException {
            out.flush();
        }

        @Override
        public void close() throws IOException {
            out.close();
        }
    }
}
