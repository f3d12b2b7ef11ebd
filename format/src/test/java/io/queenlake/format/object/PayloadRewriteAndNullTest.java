package io.queenlake.format.object;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.format.codec.DecodedRecord;
import io.queenlake.format.jsonl.Compression;
import io.queenlake.format.jsonl.PayloadText;
import io.queenlake.format.model.LogRecord;
import io.queenlake.format.parquet.ParquetCodec;
import io.queenlake.format.run.RecordEncoding;
import io.queenlake.format.run.RecordRun;
import io.queenlake.format.window.ObjectLabels;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Payloads no real broker sends (overlong UTF-8, CESU-8 surrogates, bytes above F4, text that is
 * not JSON) are rewritten the same way by both formats, and {@link PayloadText} says which; a
 * JSON {@code null} payload and an empty one stay apart in Parquet (text {@code null} vs NULL).
 */
class PayloadRewriteAndNullTest {

    private static final ObjectLabels LABELS = new ObjectLabels("00000000-0000-0000-0000-000000000001", "orders");
    private static final Format JSONL = new Format.Jsonl(Compression.NONE);
    private static final Format PARQUET = new Format.Parquet(ParquetCodec.ZSTD);

    @TempDir
    Path dir;

    private static byte[] bytes(int... b) {
        byte[] out = new byte[b.length];
        for (int i = 0; i < b.length; i++) {
            out[i] = (byte) b[i];
        }
        return out;
    }

    static final byte[] OVERLONG = bytes('"', 0xC0, 0x80, '"');
    static final byte[] CESU8 = bytes('"', 0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80, '"');
    static final byte[] ABOVE_F4 = bytes('"', 'a', 0xF5, '"');

    @Test
    void bothFormatsWriteABadPayloadAsTheSameJsonStringAndSayWhy() throws IOException {
        List<LogRecord> records = new ArrayList<>();
        byte[][] bad = {OVERLONG, CESU8, ABOVE_F4, "{\"a\":".getBytes(StandardCharsets.UTF_8)};
        for (int i = 0; i < bad.length; i++) {
            records.add(new LogRecord("p", "", i, "t", 1_000 + i, bad[i], i % 2 == 0));
        }
        records.add(new LogRecord("p", "", bad.length, "t", 2_000, "{\"ok\":\"\u00e9\"}".getBytes(StandardCharsets.UTF_8)));

        List<DecodedRecord> jsonl = roundTrip(JSONL, records);
        List<DecodedRecord> parquet = roundTrip(PARQUET, records);
        for (int i = 0; i < bad.length; i++) {
            assertThat(PayloadText.isRewritten(records.get(i))).as("record %d", i).isTrue();
            byte[] rewritten = PayloadText.asJsonString(bad[i]);
            assertThat(jsonl.get(i).payload()).as("jsonl %d", i).isEqualTo(rewritten);
            assertThat(parquet.get(i).payload()).as("parquet %d", i).isEqualTo(rewritten);
        }
        assertThat(new String(jsonl.get(0).payload(), StandardCharsets.UTF_8)).isEqualTo("\"\\\"\ufffd\ufffd\\\"\"");
        assertThat(PayloadText.whyRewritten(OVERLONG)).isEqualTo("byte 0xC0 at 1 is not well-formed UTF-8");
        assertThat(PayloadText.whyRewritten(CESU8)).isEqualTo("byte 0xED at 1 is not well-formed UTF-8");
        assertThat(PayloadText.whyRewritten(ABOVE_F4)).isEqualTo("byte 0xF5 at 2 is not well-formed UTF-8");
        assertThat(PayloadText.whyRewritten(bad[3])).isEqualTo("it is not one JSON text");
        LogRecord fine = records.get(bad.length);
        assertThat(PayloadText.isRewritten(fine)).isFalse();
        assertThat(jsonl.get(bad.length).payload()).isEqualTo(fine.payload());
        assertThat(parquet.get(bad.length).payload()).isEqualTo(fine.payload());
    }

    @Test
    void eachFormatsRecordEncodingSaysWhichPayloadsItRewritesAsPayloadTextDoes() {
        List<LogRecord> records = new ArrayList<>();
        byte[][] payloads = {OVERLONG, CESU8, ABOVE_F4, "{\"a\":".getBytes(StandardCharsets.UTF_8),
                "{\"ok\":\"\u00e9\"}".getBytes(StandardCharsets.UTF_8), "{\"a\":\n1}".getBytes(StandardCharsets.US_ASCII),
                "\"a\nb\"".getBytes(StandardCharsets.US_ASCII), "null".getBytes(StandardCharsets.US_ASCII), new byte[0],
                "[1,2]".getBytes(StandardCharsets.US_ASCII), "1 2".getBytes(StandardCharsets.US_ASCII)};
        for (int i = 0; i < payloads.length; i++) {
            records.add(new LogRecord("p", "", 2L * i, "t", 1_000 + i, payloads[i], false));
            records.add(new LogRecord("p", "", 2L * i + 1, "t", 1_000 + i, payloads[i], true));
        }
        for (Format format : List.of(JSONL, PARQUET)) {
            RecordEncoding encoding = format.encoder().recordEncoding();
            RecordRun run = encoding.newRun("p", "");
            for (LogRecord r : records) {
                assertThat(encoding.append(r, run)).as("%s, record %d", format, r.offset())
                        .isEqualTo(PayloadText.isRewritten(r));
            }
        }
        // The three ill-formed UTF-8 payloads either way; the three ASCII ones that are not one JSON text only
        // when no parser vouched for them.
        assertThat(records.stream().filter(PayloadText::isRewritten).count()).isEqualTo(9);
    }

    @Test
    void aNullPayloadIsTheTextNullAndAnEmptyOneIsNullInParquetAsDuckDbReadsIt() throws Exception {
        List<LogRecord> records = List.of(
                new LogRecord("p", "", 0, "t-0", 1_000, "null".getBytes(StandardCharsets.US_ASCII), true),
                new LogRecord("p", "", 1, "t-1", 1_001, new byte[0], true));
        assertThat(PayloadText.isRewritten(records.get(0))).isFalse();
        assertThat(PayloadText.isRewritten(records.get(1))).isFalse();

        List<DecodedRecord> parquet = roundTrip(PARQUET, records);
        assertThat(parquet.get(0).payload()).asString(StandardCharsets.US_ASCII).isEqualTo("null");
        assertThat(parquet.get(1).payload()).isNull();
        List<DecodedRecord> jsonl = roundTrip(JSONL, records);
        assertThat(jsonl.get(0).payload()).asString(StandardCharsets.US_ASCII).isEqualTo("null");
        assertThat(jsonl.get(1).payload()).asString(StandardCharsets.US_ASCII).isEqualTo("null");

        Path file = dir.resolve("nulls.parquet");
        Files.write(file, encode(PARQUET, records));
        try (Connection duck = DriverManager.getConnection("jdbc:duckdb:");
                ResultSet rows = duck.createStatement().executeQuery(
                        "SELECT payload, payload IS NULL, json_type(payload::JSON) FROM read_parquet('" + file
                                + "') ORDER BY \"offset\"")) {
            assertThat(rows.next()).isTrue();
            assertThat(rows.getString(1)).isEqualTo("null");
            assertThat(rows.getBoolean(2)).isFalse();
            assertThat(rows.getString(3)).isEqualTo("NULL");
            assertThat(rows.next()).isTrue();
            assertThat(rows.getString(1)).isNull();
            assertThat(rows.getBoolean(2)).isTrue();
            assertThat(rows.next()).isFalse();
        }
    }

    private static byte[] encode(Format format, List<LogRecord> records) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        format.encoder().encode(records, LABELS, out);
        return out.toByteArray();
    }

    private static List<DecodedRecord> roundTrip(Format format, List<LogRecord> records) throws IOException {
        return format.reader().read("w." + format.extension(), encode(format, records));
    }
}
