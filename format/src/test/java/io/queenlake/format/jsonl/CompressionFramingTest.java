package io.queenlake.format.jsonl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdOutputStreamNoFinalizer;
import io.queenlake.format.model.LogRecord;
import io.queenlake.format.testutils.Decoded;
import io.queenlake.format.window.ObjectLabels;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class CompressionFramingTest {

    private static List<LogRecord> manyRecords(int n) {
        List<LogRecord> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(new LogRecord("cust-000042", "", i, "txn-" + i, 1_791_009_457_501_942L + i * 997L,
                    ("{\"type\":\"paid\",\"amount\":" + (1000 + i % 500) + ",\"currency\":\"EUR\"}")
                            .getBytes(StandardCharsets.UTF_8)));
        }
        return out;
    }

    private static byte[] encode(Compression c, List<LogRecord> records) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        JsonlObjectEncoder.of(c).encode(records, new ObjectLabels("t", "q"), out);
        return out.toByteArray();
    }

    @Test
    void allThreeCompressionsCarryTheSameLines() throws IOException {
        List<LogRecord> records = manyRecords(20_000); // several 128 KiB chunks
        byte[] plain = encode(Compression.NONE, records);
        assertThat(Decoded.jsonl("jsonl.zst", encode(Compression.ZSTD, records))).isEqualTo(plain);
        assertThat(Decoded.jsonl("jsonl.gz", encode(Compression.GZIP, records))).isEqualTo(plain);
        assertThat(plain[plain.length - 1]).isEqualTo((byte) '\n');
        assertThat(new String(plain, StandardCharsets.UTF_8).split("\n")).hasSize(20_000);
    }

    @Test
    void gzipHasAFixedHeaderWithoutTimeOrNameAndOsByte255() throws IOException {
        byte[] gz = encode(Compression.GZIP, manyRecords(3));
        // ID1 ID2 CM=deflate FLG=0 MTIME=0 0 0 0 XFL=0 OS=255
        assertThat(Arrays.copyOf(gz, 10)).containsExactly(0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff);
    }

    @Test
    void zstdIsOneFrameWithoutChecksum() throws IOException {
        byte[] zst = encode(Compression.ZSTD, manyRecords(20_000));
        assertThat(Arrays.copyOf(zst, 4)).containsExactly(0x28, 0xb5, 0x2f, 0xfd);
        int frameHeaderDescriptor = zst[4] & 0xff;
        assertThat(frameHeaderDescriptor & 0x04).as("content checksum flag").isZero();
        assertThat(Zstd.findFrameCompressedSize(zst)).as("one frame spans the whole object").isEqualTo(zst.length);
    }

    @Test
    void theZstdFrameIsWhatZstdJniStreamingWritesForTheSameLines() throws IOException {
        for (int records : new int[] {1, 700, 20_000}) {
            List<LogRecord> lines = manyRecords(records);
            byte[] plain = encode(Compression.NONE, lines);
            ByteArrayOutputStream expected = new ByteArrayOutputStream();
            try (ZstdOutputStreamNoFinalizer zstd = new ZstdOutputStreamNoFinalizer(expected, 3)) {
                zstd.setChecksum(false);
                for (int off = 0, step = 1; off < plain.length; off += step, step = step * 7 + 1) {
                    zstd.write(plain, off, Math.min(step, plain.length - off)); // any feeding gives the same frame
                }
            }
            assertThat(encode(Compression.ZSTD, lines)).as("%d records", records).isEqualTo(expected.toByteArray());
        }
    }

    @Test
    void compressionShrinksTypicalLinesTenfold() throws IOException {
        List<LogRecord> records = manyRecords(100_000);
        byte[] plain = encode(Compression.NONE, records);
        assertThat(encode(Compression.ZSTD, records).length).isLessThan(plain.length / 10);
        assertThat(encode(Compression.GZIP, records).length).isLessThan(plain.length / 10);
    }

    @Test
    void anEmptyObjectIsStillAValidCompressedStream() throws IOException {
        assertThat(Decoded.jsonl("jsonl.zst", encode(Compression.ZSTD, List.of()))).isEmpty();
        assertThat(Decoded.jsonl("jsonl.gz", encode(Compression.GZIP, List.of()))).isEmpty();
    }

    @Test
    void compressionNamesParseWithTheReferenceAliases() {
        assertThat(Compression.parse("zst")).isEqualTo(Compression.ZSTD);
        assertThat(Compression.parse("GZ")).isEqualTo(Compression.GZIP);
        assertThat(Compression.parse("off")).isEqualTo(Compression.NONE);
        assertThatThrownBy(() -> Compression.parse("lz4")).hasMessage("compression 'lz4' is not one of zstd, gzip, none");
    }
}
