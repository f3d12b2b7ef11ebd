package io.queenlake.format.parquet;

import static io.queenlake.format.parquet.ParquetEnvelopeSchema.PARTITION;

import io.queenlake.format.codec.ObjectEncoder;
import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * Every tunable of the Parquet envelope writer, pinned. The bytes of an object depend on these
 * values, so each one is set explicitly here rather than left to a parquet-java default that a
 * library upgrade could move. Change one and the {@code describe()} string must
 * change with it.
 *
 * @param codec ZSTD or SNAPPY
 * @param zstdLevel the zstd level (3)
 * @param rowGroupRecords a row group closes after this many records (100,000)
 * @param pageBytes data page size threshold (1 MiB)
 * @param dictionaryPageBytes dictionary page size threshold (1 MiB); past it the partition column
 *     falls back to PLAIN, which is still a function of the records
 * @param pageRowLimit a data page closes after this many rows (20,000)
 * @param truncateLength min/max truncation of chunk statistics and column index (64 bytes)
 * @param pageChecksums CRC32 of every page header (on: cheap, and readers can verify)
 * @param createdBy the footer's {@code created_by}
 */
record ParquetSettings(
        CompressionCodecName codec,
        int zstdLevel,
        int rowGroupRecords,
        int pageBytes,
        int dictionaryPageBytes,
        int pageRowLimit,
        int truncateLength,
        boolean pageChecksums,
        String createdBy) {

    static final String WRITER_VERSION = ObjectEncoder.VERSION;

    /**
     * "application version x.y.z" is the form parquet-java's {@code VersionParser} reads; a
     * {@code created_by} it cannot parse makes parquet-java readers drop the min/max statistics of
     * every string column (the PARQUET-251 guard), so the name keeps that form on purpose.
     */
    static final String CREATED_BY = "queen-lake version " + WRITER_VERSION;

    static ParquetSettings pinned(CompressionCodecName codec) {
        if (codec != CompressionCodecName.ZSTD && codec != CompressionCodecName.SNAPPY) {
            throw new IllegalArgumentException(
                    "Parquet codec " + codec + " is not part of the lake contract; use zstd or snappy.");
        }
        return new ParquetSettings(codec, 3, 100_000, 1 << 20, 1 << 20, 20_000, 64, true, CREATED_BY);
    }

    /** The column-level writer properties: PARQUET_1_0 pages, dictionary on partition only. */
    ParquetProperties properties() {
        return ParquetProperties.builder()
                .withWriterVersion(WriterVersion.PARQUET_1_0)
                .withAllocator(new HeapByteBufferAllocator())
                .withValuesWriterFactory(new EnvelopeValuesWriters())
                .withPageSize(pageBytes)
                .withDictionaryPageSize(dictionaryPageBytes)
                .withPageRowCountLimit(pageRowLimit)
                .withMinRowCountForPageSizeCheck(100)
                .withMaxRowCountForPageSizeCheck(10_000)
                .estimateRowCountForPageSizeCheck(true)
                .withDictionaryEncoding(false)
                .withDictionaryEncoding(PARTITION, true)
                .withByteStreamSplitEncoding(false)
                .withBloomFilterEnabled(false)
                .withStatisticsEnabled(true)
                .withSizeStatisticsEnabled(true)
                .withStatisticsTruncateLength(truncateLength)
                .withColumnIndexTruncateLength(truncateLength)
                .withPageWriteChecksumEnabled(pageChecksums)
                .build();
    }

    /** The page compressors, the zstd level set here and not by a config file. */
    PageCompression pageCompression() {
        return new PageCompression(zstdLevel, pageBytes);
    }
}
