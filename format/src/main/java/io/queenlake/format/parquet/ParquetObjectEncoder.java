package io.queenlake.format.parquet;

import io.queenlake.format.model.LogRecord;
import io.queenlake.format.window.ObjectEncoder;
import io.queenlake.format.window.ObjectLabels;
import java.io.OutputStream;
import java.util.List;

/** Placeholder until the Parquet envelope writer lands; every call refuses. */
public final class ParquetObjectEncoder implements ObjectEncoder {
    private final String codec;

    private ParquetObjectEncoder(String codec) {
        this.codec = codec;
    }

    public static ParquetObjectEncoder zstd() {
        return new ParquetObjectEncoder("zstd");
    }

    public static ParquetObjectEncoder snappy() {
        return new ParquetObjectEncoder("snappy");
    }

    @Override
    public void encode(List<LogRecord> records, ObjectLabels labels, OutputStream out) {
        throw new UnsupportedOperationException("Parquet encoder not written yet");
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
        return codec;
    }

    @Override
    public String describe() {
        return "queen-lake/0.1.0 parquet " + codec;
    }
}
