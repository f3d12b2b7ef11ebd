package io.queenlake.format.parquet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.Encoding;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.RowGroup;
import org.apache.parquet.format.Util;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.schema.MessageTypeParser;
import org.apache.parquet.schema.MessageType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FooterStampTest {
    @TempDir
    Path dir;

    @Test
    void restampingLeavesEveryByteBeforeTheFooterAsItWas() throws IOException {
        Path file = parquetJavaFile();
        byte[] original = Files.readAllBytes(file);
        int body = original.length - 8 - footerLength(original);

        byte[] restamped = FooterStamp.restamp(original, createdBy(file));

        assertThat(Arrays.copyOf(restamped, body)).isEqualTo(Arrays.copyOf(original, body));
    }

    @Test
    void aPinnedFooterIsAFixedPointOfRestamping() throws IOException {
        Path file = parquetJavaFile();
        byte[] once = FooterStamp.restamp(Files.readAllBytes(file), "queen-lake version 0.1.0");

        assertThat(FooterStamp.restamp(once, "queen-lake version 0.1.0")).isEqualTo(once);
    }

    @Test
    void everyColumnChunkListsItsEncodingsInAscendingOrder() throws IOException {
        byte[] pinned = FooterStamp.restamp(Files.readAllBytes(parquetJavaFile()), "queen-lake version 0.1.0");
        int length = footerLength(pinned);

        FileMetaData footer = Util.readFileMetaData(
                new ByteArrayInputStream(pinned, pinned.length - 8 - length, length));

        for (RowGroup group : footer.getRow_groups()) {
            for (ColumnChunk chunk : group.getColumns()) {
                List<Integer> codes = chunk.getMeta_data().getEncodings().stream().map(Encoding::getValue).toList();
                assertThat(codes).as(String.join(".", chunk.getMeta_data().getPath_in_schema())).isSorted();
            }
        }
    }

    @Test
    void aRestampedFileReadsBackWithOnlyItsCreatedByChanged() throws IOException {
        Path file = parquetJavaFile();
        Path restamped = dir.resolve("restamped.parquet");
        Files.write(restamped, FooterStamp.restamp(Files.readAllBytes(file), "queen-lake version 0.1.0"));

        assertThat(createdBy(file)).startsWith("parquet-mr version ");
        assertThat(createdBy(restamped)).isEqualTo("queen-lake version 0.1.0");
        try (ParquetFileReader before = ParquetFileReader.open(new LocalInputFile(file));
                ParquetFileReader after = ParquetFileReader.open(new LocalInputFile(restamped))) {
            assertThat(after.getRecordCount()).isEqualTo(before.getRecordCount()).isEqualTo(3);
            assertThat(after.getFooter().getFileMetaData().getSchema())
                    .isEqualTo(before.getFooter().getFileMetaData().getSchema());
        }
    }

    @Test
    void aTailWithoutItsClosingMagicIsRefused() throws IOException {
        byte[] original = Files.readAllBytes(parquetJavaFile());
        byte[] cut = Arrays.copyOf(original, original.length - 1);

        assertThatThrownBy(() -> FooterStamp.restamp(cut, "x"))
                .isInstanceOf(IOException.class)
                .hasMessage("Parquet writer output does not end with its footer; the file is incomplete.");
    }

    /** A small file written by parquet-java's own example writer, footer untouched. */
    private Path parquetJavaFile() throws IOException {
        MessageType schema = MessageTypeParser.parseMessageType("message m { required int64 n; }");
        Path file = dir.resolve("plain.parquet");
        Files.deleteIfExists(file);
        try (ParquetWriter<org.apache.parquet.example.data.Group> writer =
                ExampleParquetWriter.builder(new LocalOutputFile(file)).withType(schema).build()) {
            SimpleGroupFactory rows = new SimpleGroupFactory(schema);
            for (long n = 0; n < 3; n++) {
                writer.write(rows.newGroup().append("n", n));
            }
        }
        return file;
    }

    private static int footerLength(byte[] file) {
        return ByteBuffer.wrap(file, file.length - 8, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
    }

    private static String createdBy(Path file) throws IOException {
        try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(file))) {
            return reader.getFooter().getFileMetaData().getCreatedBy();
        }
    }
}
