package io.queenlake.bench.e2e;

import io.queenlake.format.model.LogRecord;
import io.queenlake.source.QueueRecord;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import org.apache.flink.api.common.serialization.Encoder;

/**
 * The row format a Flink user writes for FileSink: each record as one JSON line with the fields of
 * a lake line ({@code partition, offset, transactionId, ts, payload}), the stamp as epoch
 * microseconds and the payload copied verbatim (it is JSON already). Uncompressed, unsorted.
 */
final class JsonLineEncoder implements Encoder<QueueRecord> {

    private static final byte[] PARTITION = "{\"partition\":".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] OFFSET = ",\"offset\":".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] TRANSACTION = ",\"transactionId\":".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] TS = ",\"ts\":".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] PAYLOAD = ",\"payload\":".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NULL = "null".getBytes(StandardCharsets.US_ASCII);

    @Override
    public void encode(QueueRecord element, OutputStream out) throws IOException {
        LogRecord r = element.record();
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
