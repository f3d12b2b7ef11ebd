package io.queenlake.format.parquet;

import io.queenlake.format.codec.Labels;
import io.queenlake.format.codec.ObjectEncoder;
import io.queenlake.format.model.LogRecord;
import io.queenlake.format.run.RecordEncoding;
import io.queenlake.format.run.RunSlice;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;

/**
 * The {@code format=parquet} encoder of the lake contract: one envelope row per record, zstd
 * (level 3) or snappy, row groups of 100,000 records, a fixed {@code created_by} and footer
 * metadata {@code queen.envelope}, {@code queen.queue}, {@code queen.tenant}. Stateless and safe
 * to share; each {@link #encode} builds its own writer.
 */
public final class ParquetObjectEncoder implements ObjectEncoder {
    private final ParquetSettings settings;
    private final ParquetCodec codec;

    private ParquetObjectEncoder(ParquetCodec codec) {
        this.settings = ParquetSettings.pinned(codec.parquetName());
        this.codec = codec;
    }

    public static ParquetObjectEncoder of(ParquetCodec codec) {
        return new ParquetObjectEncoder(codec);
    }

    public static ParquetObjectEncoder zstd() {
        return of(ParquetCodec.ZSTD);
    }

    public static ParquetObjectEncoder snappy() {
        return of(ParquetCodec.SNAPPY);
    }

    @Override
    public void encode(List<LogRecord> records, Labels labels, OutputStream out) throws IOException {
        new ParquetWindowWriter(settings).write(records, labels, out);
    }

    @Override
    public RecordEncoding recordEncoding() {
        return new ParquetRows();
    }

    @Override
    public void encodeRuns(List<RunSlice> inLakeOrder, Labels labels, OutputStream out) throws IOException {
        new ParquetWindowWriter(settings).write(ParquetRows.records(inLakeOrder), labels, out);
    }

    @Override
    public String toString() {
        return "ParquetObjectEncoder[" + codec.wireName() + "]";
    }
}
