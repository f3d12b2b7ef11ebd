package io.queenlake.format.object;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queenlake.format.codec.DecodedRecord;
import io.queenlake.format.jsonl.Compression;
import io.queenlake.format.key.Prefix;
import io.queenlake.format.model.Align;
import io.queenlake.format.model.Layout;
import io.queenlake.format.model.LogRecord;
import io.queenlake.format.order.WindowRecordOrder;
import io.queenlake.format.parquet.ParquetCodec;
import io.queenlake.format.testutils.DeterminismProbe;
import io.queenlake.format.window.EncodedObject;
import io.queenlake.format.window.WindowEncoder;
import io.queenlake.format.window.WindowInput;
import io.queenlake.format.window.WriterSettings;
import java.io.IOException;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class FormatTest {

    private static final Format JSONL_ZSTD = new Format.Jsonl(Compression.ZSTD);
    private static final Format JSONL_GZIP = new Format.Jsonl(Compression.GZIP);
    private static final Format JSONL_NONE = new Format.Jsonl(Compression.NONE);
    private static final Format PARQUET_ZSTD = new Format.Parquet(ParquetCodec.ZSTD);
    private static final Format PARQUET_SNAPPY = new Format.Parquet(ParquetCodec.SNAPPY);

    @Test
    void everyFormatAndCodecIsOneValue() {
        assertThat(Format.ALL).containsExactly(JSONL_ZSTD, JSONL_GZIP, JSONL_NONE, PARQUET_ZSTD, PARQUET_SNAPPY);
        assertThat(Format.ALL.stream().map(Format::describe)).doesNotHaveDuplicates();
    }

    @Test
    void aNameAndItsAliasesGiveTheFormatWithItsDefaultCodec() {
        assertThat(JSONL_ZSTD.names()).containsExactly("jsonl", "json", "ndjson");
        assertThat(PARQUET_ZSTD.names()).containsExactly("parquet");
        for (String name : List.of("jsonl", "json", "ndjson", " NDJSON ", "Json")) {
            assertThat(Format.named(name)).as(name).isEqualTo(JSONL_ZSTD);
        }
        assertThat(Format.named("PARQUET")).isEqualTo(PARQUET_ZSTD);
    }

    @Test
    void aCodecIsTakenByItsNameOrAlias() {
        assertThat(Format.of("json", "gz")).isEqualTo(JSONL_GZIP);
        assertThat(Format.of("jsonl", "zst")).isEqualTo(JSONL_ZSTD);
        assertThat(Format.of("ndjson", "off")).isEqualTo(JSONL_NONE);
        assertThat(Format.of("parquet", "SNAPPY")).isEqualTo(PARQUET_SNAPPY);
        assertThat(PARQUET_SNAPPY.withCodec("zstd")).isEqualTo(PARQUET_ZSTD);
        for (Format f : Format.ALL) {
            assertThat(Format.of(f.name(), f.codecName())).as(f.describe()).isEqualTo(f);
        }
    }

    @Test
    void anUnknownNameOrCodecIsRefusedInOneSentence() {
        assertThatThrownBy(() -> Format.named("csv")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("format 'csv' is not one of jsonl, parquet");
        assertThatThrownBy(() -> Format.named(null)).hasMessage("format '' is not one of jsonl, parquet");
        assertThatThrownBy(() -> Format.of("parquet", "gzip"))
                .hasMessage("parquet codec 'gzip' is not one of zstd, snappy");
        assertThatThrownBy(() -> Format.of("jsonl", "snappy"))
                .hasMessage("compression 'snappy' is not one of zstd, gzip, none");
    }

    static Stream<Arguments> spellings() {
        return Stream.of(
                Arguments.of(JSONL_ZSTD, "jsonl", "zstd", "jsonl.zst", "queen-lake/0.1.0 jsonl+zstd"),
                Arguments.of(JSONL_GZIP, "jsonl", "gzip", "jsonl.gz", "queen-lake/0.1.0 jsonl+gzip"),
                Arguments.of(JSONL_NONE, "jsonl", "none", "jsonl", "queen-lake/0.1.0 jsonl"),
                Arguments.of(PARQUET_ZSTD, "parquet", "zstd", "parquet", "queen-lake/0.1.0 parquet+zstd"),
                Arguments.of(PARQUET_SNAPPY, "parquet", "snappy", "parquet", "queen-lake/0.1.0 parquet+snappy"));
    }

    /** The manifest's fields, the key's extension and the writer string, as the lake has always spelled them. */
    @ParameterizedTest
    @MethodSource("spellings")
    void manifestFieldsExtensionAndWriterAreTheLakeContracts(Format f, String name, String codec, String extension,
            String writer) {
        assertThat(f.name()).isEqualTo(name);
        assertThat(f.codecName()).isEqualTo(codec);
        assertThat(f.extension()).isEqualTo(extension);
        assertThat(f.writer()).isEqualTo(writer);
        assertThat(f.describe()).isEqualTo(writer.substring("queen-lake/0.1.0 ".length()));
        assertThat(f).hasToString(f.describe());
    }

    /** An object written in a format is read back by the reader its key's extension finds. */
    @ParameterizedTest
    @MethodSource("all")
    void theReaderFoundFromAKeyReadsWhatTheEncoderWrote(Format f) throws IOException {
        List<LogRecord> records = DeterminismProbe.records();
        WindowInput window = DeterminismProbe.window(records);
        List<LogRecord> inLakeOrder = WindowRecordOrder.order(records).records();
        EncodedObject o = new WindowEncoder(new WriterSettings(f, Layout.MERGED, Align.HOUR, 1 << 20),
                Prefix.DEFAULT, "default").encode(window).objects().get(0);
        assertThat(o.key()).endsWith("." + f.extension());
        assertThat(Format.isObjectKey(o.key())).isTrue();

        List<DecodedRecord> read = Format.readerFor(o.key()).read(o.key(), o.body());

        assertThat(read).hasSameSizeAs(inLakeOrder);
        for (int i = 0; i < read.size(); i++) {
            LogRecord r = inLakeOrder.get(i);
            assertThat(read.get(i)).as("record %d", i).extracting(DecodedRecord::partition, DecodedRecord::offset,
                    DecodedRecord::transactionId, DecodedRecord::tsMicros)
                    .containsExactly(r.partition(), r.offset(), r.transactionId(), r.tsMicros());
        }
    }

    static Stream<Format> all() {
        return Format.ALL.stream();
    }

    @Test
    void aKeyWithoutALakeExtensionHasNoReader() {
        for (String key : List.of("queen/t/q/w-1.csv", "queen/t/q/w-1.zst", "queen/t/q/w-1.jsonl.lz4", "parquet")) {
            assertThat(Format.isObjectKey(key)).as(key).isFalse();
            assertThatThrownBy(() -> Format.readerFor(key)).as(key).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("object " + key + " has no lake extension (.jsonl.zst, .jsonl.gz, .jsonl, .parquet)");
        }
    }

    @Test
    void aJsonlReaderRefusesBytesOfAnotherCompression() throws IOException {
        EncodedObject gz = new WindowEncoder(new WriterSettings(JSONL_GZIP, Layout.MERGED, Align.HOUR, 1 << 20),
                Prefix.DEFAULT, "default").encode(DeterminismProbe.window(DeterminismProbe.records())).objects().get(0);
        assertThatThrownBy(() -> JSONL_ZSTD.reader().read("x.jsonl.zst", gz.body())).isInstanceOf(IOException.class);
    }
}
