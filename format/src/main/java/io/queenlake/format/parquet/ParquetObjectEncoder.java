package io.queenlake.format.parquet;

import io.queenlake.format.codec.Labels;
import io.queenlake.format.codec.ObjectEncoder;
import io.queenlake.format.model.LogRecord;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * The {@code format=parquet} encoder of the lake contract: one envelope row per record, zstd
 * (level 3) or snappy, row groups of 100,000 records, a fixed {@code created_by} and footer
 * metadata {@code queen.envelope}, {@code queen.queue}, {@code queen.tenant}. Stateless and safe
 * to share; each {@link #encode} builds its own writer.
 */
public final class ParquetObjectEncoder implements ObjectEncoder {
    private final ParquetSettings settings;
    private final String compression;

    private ParquetObjectEncoder(CompressionCodecName codec, String compression) {
        this.settings = ParquetSettings.pinned(codec);
        this.compression = compression;
    }

    public static ParquetObjectEncoder zstd() {
        return new ParquetObjectEncoder(CompressionCodecName.ZSTD, "zstd");
    }

    public static ParquetObjectEncoder snappy() {
        return new ParquetObjectEncoder(CompressionCodecName.SNAPPY, "snappy");
    }

    @Override
    public void encode(List<LogRecord> records, Labels labels, OutputStream out) throws IOException {
        new ParquetWindowWriter(settings).write(records, labels, out);
    }

    @Override
    public String extension() {
        return "parquet";
    }

    @Override
    public String format() {
        return "parquet";
    }

    @Override
    public String compression() {
        return compression;
    }

    @Override
    public String describe() {
        return "queen-lake/" + ParquetSettings.WRITER_VERSION + " parquet+" + compression;
    }
}
