package io.queenlake.bench.e2e;

import com.github.luben.zstd.ZstdOutputStreamNoFinalizer;
import io.queenlake.format.model.LogRecord;
import io.queenlake.source.QueueRecord;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.core.fs.FSDataOutputStream;

/**
 * The JSON lines a Flink user writes with FileSink, compressed as the lake compresses its JSONL:
 * each record as one line with the fields of a lake line ({@code partition, offset, transactionId,
 * ts, payload}; the stamp as epoch microseconds, the payload copied verbatim, it is JSON already),
 * unsorted, in one zstd frame per part file at level 3, no checksum, single-threaded. Compressing a
 * whole file needs a bulk format, so the part rolls on checkpoint, as the Parquet peer's does.
 * Lines are buffered before the compressor so that it sees large writes, not one native call per field.
 */
final class ZstdJsonLineWriters implements BulkWriter.Factory<QueueRecord> {

    private static final int ZSTD_LEVEL = 3;
    private static final int BUFFER = 128 * 1024;
    private static final byte[] PARTITION = "{\"partition\":".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] OFFSET = ",\"offset\":".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] TRANSACTION = ",\"transactionId\":".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] TS = ",\"ts\":".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] PAYLOAD = ",\"payload\":".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NULL = "null".getBytes(StandardCharsets.US_ASCII);

    @Override
    public BulkWriter<QueueRecord> create(FSDataOutputStream out) throws IOException {
        ZstdOutputStreamNoFinalizer zstd = new ZstdOutputStreamNoFinalizer(out, ZSTD_LEVEL);
        zstd.setChecksum(false);
        zstd.setWorkers(0);
        BufferedOutputStream buffered = new BufferedOutputStream(zstd, BUFFER);
        return new BulkWriter<>() {
            @Override
            public void addElement(QueueRecord element) throws IOException {
                line(element.record(), buffered);
            }

            @Override
            public void flush() {
                // FileSink calls this just before finish(): a zstd flush would only end a block early
            }

            @Override
            public void finish() throws IOException {
                buffered.flush();
                zstd.closeWithoutClosingParentStream(); // FileSink closes its own stream
            }
        };
    }

    private static void line(LogRecord r, OutputStream out) throws IOException {
        out.write(PARTITION);
        string(r.partition(), out);
        out.write(OFFSET);
        out.write(Long.toString(r.offset()).getBytes(StandardCharsets.US_ASCII));
        out.write(TRANSACTION);
        string(r.transactionId(), out);
        out.write(TS);
        out.write(Long.toString(r.tsMicros()).getBytes(StandardCharsets.US_ASCII));
        out.write(PAYLOAD);
        out.write(r.payload().length == 0 ? NULL : r.payload());
        out.write('}');
        out.write('\n');
    }

    /** A JSON string: quotes, backslashes and control characters escaped. */
    private static void string(String s, OutputStream out) throws IOException {
        out.write('"');
        for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
            if (b == '"' || b == '\\') {
                out.write('\\');
                out.write(b);
            } else if (b >= 0 && b < 0x20) {
                out.write(String.format("\\u%04x", b).getBytes(StandardCharsets.US_ASCII));
            } else {
                out.write(b);
            }
        }
        out.write('"');
    }
}
