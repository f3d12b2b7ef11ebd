package io.queenlake.format.parquet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queenlake.format.model.LogRecord;
import io.queenlake.format.window.ObjectLabels;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.convert.GroupRecordConverter;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.KeyValue;
import org.apache.parquet.format.Util;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.RecordReader;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ParquetObjectEncoderTest {
    private static final ObjectLabels LABELS =
            new ObjectLabels("00000000-0000-0000-0000-000000000001", "orders");

    @TempDir
    Path dir;

    @Test
    void theSchemaIsTheContractsGoldenString() throws IOException {
        ParquetMetadata footer = footerOf(write(ParquetObjectEncoder.zstd(), EnvelopeRecords.lakeOrdered(1, 10, 2)));

        assertThat(footer.getFileMetaData().getSchema().toString())
                .isEqualTo("""
                        message queen_record {
                          required binary partition (STRING);
                          required int64 offset;
                          required binary transaction_id (STRING);
                          required int64 ts (TIMESTAMP(MICROS,true));
                          optional binary payload (STRING);
                        }
                        """);
    }

    @Test
    void theFooterNamesTheWriterAndTheLabelsInTheContractsOrder() throws IOException {
        byte[] object = encode(ParquetObjectEncoder.zstd(), EnvelopeRecords.lakeOrdered(2, 100, 3));

        FileMetaData footer = rawFooter(object);
        assertThat(footer.getCreated_by()).isEqualTo("queen-lake version 0.1.0");
        assertThat(footer.getVersion()).isEqualTo(1);
        assertThat(footer.getKey_value_metadata())
                .extracting(KeyValue::getKey, KeyValue::getValue)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("queen.envelope", "1"),
                        org.assertj.core.groups.Tuple.tuple("queen.queue", "orders"),
                        org.assertj.core.groups.Tuple.tuple("queen.tenant", "00000000-0000-0000-0000-000000000001"));
        assertThat(new String(object, StandardCharsets.ISO_8859_1)).doesNotContain("parquet-mr");
    }

    @Test
    void aRowGroupClosesEvery100000RecordsWithNoEmptyTrailingGroup() throws IOException {
        List<LogRecord> records = EnvelopeRecords.lakeOrdered(3, 250_001, 300);

        Path file = write(ParquetObjectEncoder.snappy(), records);
        assertThat(footerOf(file).getBlocks()).extracting(BlockMetaData::getRowCount)
                .containsExactly(100_000L, 100_000L, 50_001L);

        Path exact = write(ParquetObjectEncoder.snappy(), records.subList(0, 200_000));
        assertThat(footerOf(exact).getBlocks()).extracting(BlockMetaData::getRowCount)
                .containsExactly(100_000L, 100_000L);
    }

    @Test
    void anEmptyWindowIsStillAValidParquetFile() throws IOException {
        ParquetMetadata footer = footerOf(write(ParquetObjectEncoder.zstd(), List.of()));

        assertThat(footer.getBlocks()).isEmpty();
        assertThat(footer.getFileMetaData().getKeyValueMetaData()).containsEntry("queen.queue", "orders");
    }

    @Test
    void readBackGivesEveryRecordWithEmptyPayloadsAsNullAndPayloadBytesUntouched() throws IOException {
        List<LogRecord> records = new ArrayList<>(EnvelopeRecords.lakeOrdered(4, 1_000, 5));
        byte[] multiLine = "{\"a\":\n1,\r\n\"b\":\"caffè\\n\"}".getBytes(StandardCharsets.UTF_8);
        records.add(new LogRecord("p-9999", "", 0, "", EnvelopeRecords.BASE_TS, multiLine));

        List<Group> rows = readAll(write(ParquetObjectEncoder.zstd(), records));

        assertThat(rows).hasSize(records.size());
        for (int i = 0; i < records.size(); i++) {
            LogRecord expected = records.get(i);
            Group row = rows.get(i);
            assertThat(row.getString("partition", 0)).isEqualTo(expected.partition());
            assertThat(row.getLong("offset", 0)).isEqualTo(expected.offset());
            assertThat(row.getString("transaction_id", 0)).isEqualTo(expected.transactionId());
            assertThat(row.getLong("ts", 0)).isEqualTo(expected.tsMicros());
            if (expected.payload().length == 0) {
                assertThat(row.getFieldRepetitionCount("payload")).as("row %d payload is NULL", i).isZero();
            } else {
                assertThat(row.getBinary("payload", 0).getBytes()).isEqualTo(expected.payload());
            }
        }
    }

    @Test
    void theSameRecordsGiveTheSameBytesEveryTimeForBothCodecs() throws IOException {
        List<LogRecord> records = EnvelopeRecords.lakeOrdered(5, 30_000, 40);

        byte[] zstdOnce = encode(ParquetObjectEncoder.zstd(), records);
        byte[] zstdTwice = encode(ParquetObjectEncoder.zstd(), List.copyOf(records));
        byte[] snappyOnce = encode(ParquetObjectEncoder.snappy(), records);
        byte[] snappyTwice = encode(ParquetObjectEncoder.snappy(), List.copyOf(records));

        assertThat(zstdTwice).isEqualTo(zstdOnce);
        assertThat(snappyTwice).isEqualTo(snappyOnce);
        assertThat(snappyOnce).isNotEqualTo(zstdOnce);
    }

    @Test
    void onlyTheFooterDiffersBetweenTwoQueuesWithTheSameRecords() throws IOException {
        List<LogRecord> records = EnvelopeRecords.lakeOrdered(6, 2_000, 4);
        byte[] orders = encode(ParquetObjectEncoder.zstd(), records);
        byte[] payments = ParquetObjectEncoderTest.encode(
                ParquetObjectEncoder.zstd(), records, new ObjectLabels(LABELS.tenant(), "payments"));

        int dataEnd = orders.length - 8 - footerLength(orders);
        assertThat(Arrays.copyOf(payments, dataEnd)).isEqualTo(Arrays.copyOf(orders, dataEnd));
        assertThat(rawFooter(payments).getKey_value_metadata().get(1).getValue()).isEqualTo("payments");
    }

    @Test
    void columnsUseThePinnedCodecEncodingsAndStatistics() throws IOException {
        ParquetMetadata footer = footerOf(write(ParquetObjectEncoder.zstd(), EnvelopeRecords.lakeOrdered(7, 5_000, 10)));

        List<ColumnChunkMetaData> columns = footer.getBlocks().get(0).getColumns();
        assertThat(columns).extracting(ColumnChunkMetaData::getCodec).containsOnly(CompressionCodecName.ZSTD);
        assertThat(columns.get(0).getEncodings()).contains(Encoding.PLAIN_DICTIONARY);
        assertThat(columns.get(1).getEncodings()).contains(Encoding.DELTA_BINARY_PACKED).doesNotContain(Encoding.PLAIN_DICTIONARY);
        assertThat(columns.get(2).getEncodings()).contains(Encoding.PLAIN).doesNotContain(Encoding.PLAIN_DICTIONARY);
        assertThat(columns.get(3).getEncodings()).contains(Encoding.DELTA_BINARY_PACKED).doesNotContain(Encoding.PLAIN_DICTIONARY);
        assertThat(columns.get(4).getEncodings()).contains(Encoding.PLAIN).doesNotContain(Encoding.PLAIN_DICTIONARY);
        // parquet-java drops string statistics of writers whose created_by it cannot parse.
        assertThat(columns.get(0).getStatistics().isEmpty()).isFalse();
        assertThat(columns.get(0).getStatistics().minAsString()).isEqualTo("p-0000");
        assertThat(columns.get(0).getStatistics().maxAsString()).isEqualTo("p-0009");
        // every 7th record from the fourth has an empty payload: 3, 10, ..., 4994
        assertThat(columns.get(4).getStatistics().getNumNulls()).isEqualTo(714);
    }

    @Test
    void duckDbReadsTsAsAUtcTimestampInMicros() throws Exception {
        List<LogRecord> records = EnvelopeRecords.lakeOrdered(8, 500, 3);
        Path file = write(ParquetObjectEncoder.zstd(), records);

        try (Connection duck = DriverManager.getConnection("jdbc:duckdb:");
                PreparedStatement query = duck.prepareStatement(
                        "SELECT partition, \"offset\", transaction_id, epoch_us(ts), typeof(ts), payload,"
                                + " strftime(ts AT TIME ZONE 'UTC', '%Y-%m-%dT%H:%M:%S.%fZ')"
                                + " FROM read_parquet(?)")) {
            query.setString(1, file.toString());
            try (ResultSet rows = query.executeQuery()) {
                for (LogRecord expected : records) {
                    assertThat(rows.next()).isTrue();
                    assertThat(rows.getString(1)).isEqualTo(expected.partition());
                    assertThat(rows.getLong(2)).isEqualTo(expected.offset());
                    assertThat(rows.getString(3)).isEqualTo(expected.transactionId());
                    assertThat(rows.getLong(4)).isEqualTo(expected.tsMicros());
                    assertThat(rows.getString(5)).isEqualTo("TIMESTAMP WITH TIME ZONE");
                    assertThat(rows.getString(6)).isEqualTo(
                            expected.payload().length == 0 ? null : new String(expected.payload(), StandardCharsets.UTF_8));
                }
                assertThat(rows.next()).isFalse();
            }
        }
    }

    @Test
    void theStampedTimeIsUtcAdjustedMicros() throws IOException {
        MessageType schema = footerOf(write(ParquetObjectEncoder.zstd(), List.of())).getFileMetaData().getSchema();

        assertThat(schema.getType("ts").getLogicalTypeAnnotation())
                .isEqualTo(LogicalTypeAnnotation.timestampType(true, LogicalTypeAnnotation.TimeUnit.MICROS));
    }

    @Test
    void aCodecOutsideTheContractIsRefusedByName() {
        assertThatThrownBy(() -> ParquetSettings.pinned(CompressionCodecName.GZIP))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Parquet codec GZIP is not part of the lake contract; use zstd or snappy.");
    }

    @Test
    void theCallersStreamIsNotClosed() throws IOException {
        boolean[] closed = {false};
        ByteArrayOutputStream out = new ByteArrayOutputStream() {
            @Override
            public void close() {
                closed[0] = true;
            }
        };
        ParquetObjectEncoder.zstd().encode(EnvelopeRecords.lakeOrdered(9, 10, 1), LABELS, out);

        assertThat(closed[0]).isFalse();
        assertThat(out.toByteArray()).startsWith("PAR1".getBytes(StandardCharsets.US_ASCII));
    }

    private static byte[] encode(ParquetObjectEncoder encoder, List<LogRecord> records) throws IOException {
        return encode(encoder, records, LABELS);
    }

    private static byte[] encode(ParquetObjectEncoder encoder, List<LogRecord> records, ObjectLabels labels)
            throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        encoder.encode(records, labels, out);
        return out.toByteArray();
    }

    private Path write(ParquetObjectEncoder encoder, List<LogRecord> records) throws IOException {
        Path file = Files.createTempFile(dir, "w-", ".parquet");
        Files.write(file, encode(encoder, records));
        return file;
    }

    private static ParquetMetadata footerOf(Path file) throws IOException {
        try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(file))) {
            return reader.getFooter();
        }
    }

    private static List<Group> readAll(Path file) throws IOException {
        List<Group> rows = new ArrayList<>();
        try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(file))) {
            MessageType schema = reader.getFooter().getFileMetaData().getSchema();
            PageReadStore rowGroup;
            while ((rowGroup = reader.readNextRowGroup()) != null) {
                RecordReader<Group> groups = new ColumnIOFactory()
                        .getColumnIO(schema)
                        .getRecordReader(rowGroup, new GroupRecordConverter(schema));
                for (long i = 0; i < rowGroup.getRowCount(); i++) {
                    rows.add(groups.read());
                }
            }
        }
        return rows;
    }

    private static int footerLength(byte[] object) {
        return ByteBuffer.wrap(object, object.length - 8, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
    }

    private static FileMetaData rawFooter(byte[] object) throws IOException {
        int length = footerLength(object);
        return Util.readFileMetaData(new ByteArrayInputStream(object, object.length - 8 - length, length));
    }

}
