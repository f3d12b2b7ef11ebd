package io.queenlake.format.parquet;

import static io.queenlake.format.parquet.ParquetEnvelopeSchema.SCHEMA;

import io.queenlake.format.codec.Labels;
import io.queenlake.format.model.LogRecord;
import java.io.IOException;
import java.io.OutputStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.parquet.column.ColumnWriteStore;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.compression.CompressionCodecFactory.BytesInputCompressor;
import org.apache.parquet.hadoop.ColumnChunkPageWriteStore;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.MessageColumnIO;
import org.apache.parquet.io.api.RecordConsumer;

/**
 * Writes one Parquet object from records in lake order, with row groups cut by record count.
 *
 * <p>It drives parquet-java's {@link ParquetFileWriter} the way {@code ParquetWriter} does
 * internally (one page store and column store per row group, records through a
 * {@code WriteSupport}), because {@code ParquetWriter} 1.15 can neither close a row group by count
 * (only by an estimated byte size) nor take a per-column encoding choice. It never decides
 * anything from time, memory pressure or the environment: the same records, labels and settings
 * give the same bytes.
 */
final class ParquetWindowWriter {
    private static final MessageColumnIO COLUMN_IO = new ColumnIOFactory(false).getColumnIO(SCHEMA);
    // Only used by parquet-java to align row groups to file-system blocks, which an OutputFile
    // without block support never does.
    private static final long NO_BLOCK_ALIGNMENT = 0;

    private final ParquetSettings settings;

    ParquetWindowWriter(ParquetSettings settings) {
        this.settings = settings;
    }

    void write(List<LogRecord> records, Labels labels, OutputStream out) throws IOException {
        StreamOutputFile file = new StreamOutputFile(out, settings.createdBy());
        ParquetProperties properties = settings.properties();
        PageCompression codecs = settings.pageCompression();
        try {
            BytesInputCompressor compressor = codecs.getCompressor(settings.codec());
            ParquetFileWriter fileWriter = new ParquetFileWriter(
                    file, SCHEMA, ParquetFileWriter.Mode.OVERWRITE, NO_BLOCK_ALIGNMENT, 0, null, properties);
            fileWriter.start();
            EnvelopeWriteSupport rows = new EnvelopeWriteSupport();
            int groupSize = settings.rowGroupRecords();
            int ordinal = 0;
            for (int from = 0; from < records.size(); from += groupSize) {
                List<LogRecord> group = records.subList(from, Math.min(records.size(), from + groupSize));
                writeRowGroup(group, ordinal++, rows, compressor, properties, fileWriter);
            }
            file.holdTail();
            fileWriter.end(footerMetadata(labels));
        } finally {
            codecs.release();
        }
    }

    private static void writeRowGroup(
            List<LogRecord> group,
            int ordinal,
            EnvelopeWriteSupport rows,
            BytesInputCompressor compressor,
            ParquetProperties properties,
            ParquetFileWriter fileWriter)
            throws IOException {
        ColumnChunkPageWriteStore pages = new ColumnChunkPageWriteStore(
                compressor,
                SCHEMA,
                properties.getAllocator(),
                properties.getColumnIndexTruncateLength(),
                properties.getPageWriteChecksumEnabled(),
                null,
                ordinal);
        ColumnWriteStore columns = properties.newColumnWriteStore(SCHEMA, pages, pages);
        try {
            RecordConsumer consumer = COLUMN_IO.getRecordWriter(columns);
            rows.prepareForWrite(consumer);
            for (LogRecord record : group) {
                rows.write(record);
            }
            consumer.flush();
            fileWriter.startBlock(group.size());
            columns.flush();
            pages.flushToFileWriter(fileWriter);
            fileWriter.endBlock();
        } finally {
            columns.close();
            pages.close();
        }
    }

    /** The footer's key/value metadata, in the contract's order. */
    private static Map<String, String> footerMetadata(Labels labels) {
        Map<String, String> metadata = new LinkedHashMap<>();
        metadata.put("queen.envelope", "1");
        metadata.put("queen.queue", labels.queue());
        metadata.put("queen.tenant", labels.tenant());
        return metadata;
    }
}
