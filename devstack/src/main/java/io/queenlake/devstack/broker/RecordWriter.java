package io.queenlake.devstack.broker;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;

/**
 * Renders a record's fetch element when it is appended. Opening a generator per record cost more
 * than the rendering itself (a push took about twice JsonOut's time per record), so each appending
 * thread keeps one generator open and writes record after record to it as root values with no
 * separator, taking each record's bytes when it is flushed.
 */
final class RecordWriter {

    /** The element and where the payload starts in it. */
    record Rendered(byte[] json, int payloadStart) {}

    private static final SerializedString OFFSET = new SerializedString("offset");
    private static final SerializedString TRANSACTION_ID = new SerializedString("transactionId");
    private static final SerializedString PAYLOAD = new SerializedString("payload");
    private static final SerializedString TS = new SerializedString("ts");
    /** A thread keeps a larger buffer only until its next record: one huge payload is not kept for good. */
    private static final int KEPT_BYTES = 64 * 1024;

    private static final ThreadLocal<RecordWriter> PER_THREAD = ThreadLocal.withInitial(RecordWriter::new);

    private final Sink sink = new Sink();
    private final JsonGenerator g;

    private RecordWriter() {
        try {
            g = AnswerJson.FACTORY.createGenerator(sink);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        g.setRootValueSeparator(null);
    }

    /** {@code {"offset":..,"transactionId":"..","payload":<answer>,"ts":".."}}, the answer as its bytes. */
    static Rendered render(long offset, long stamp, String transactionId, byte[] answer) {
        try {
            return PER_THREAD.get().write(offset, stamp, transactionId, answer);
        } catch (IOException | RuntimeException e) {
            PER_THREAD.remove(); // a record left half-written would start the next one
            throw e instanceof IOException io ? new UncheckedIOException("rendering into memory failed", io) : (RuntimeException) e;
        }
    }

    private Rendered write(long offset, long stamp, String transactionId, byte[] answer) throws IOException {
        g.writeStartObject();
        g.writeFieldName(OFFSET);
        g.writeNumber(offset);
        g.writeFieldName(TRANSACTION_ID);
        g.writeString(transactionId);
        g.writeFieldName(PAYLOAD);
        g.writeRawValue(new StoredJson(answer));
        int payloadEnd = sink.length + g.getOutputBuffered();
        g.writeFieldName(TS);
        AnswerJson.stamp(g, stamp);
        g.writeEndObject();
        sink.last = true;
        g.flush();
        return new Rendered(sink.take(), payloadEnd - answer.length);
    }

    /**
     * Collects what the generator flushes, one record at a time. A record the generator held whole is
     * handed over once, at its last flush, and copied straight to its own array: a payload is copied
     * twice when appended (into the generator's buffer, out to the record), as JsonOut copied it.
     */
    private static final class Sink extends OutputStream {

        private byte[] bytes = new byte[1024];
        private int length;
        /** Set for the flush that ends a record. */
        boolean last;
        private byte[] whole;

        @Override
        public void write(byte[] b, int offset, int n) {
            if (last && length == 0) {
                whole = Arrays.copyOfRange(b, offset, offset + n);
                return;
            }
            if (length + n > bytes.length) {
                bytes = Arrays.copyOf(bytes, Math.max(length + n, bytes.length * 2));
            }
            System.arraycopy(b, offset, bytes, length, n);
            length += n;
        }

        @Override
        public void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        byte[] take() {
            byte[] record = whole != null ? whole : Arrays.copyOf(bytes, length);
            whole = null;
            last = false;
            length = 0;
            if (bytes.length > KEPT_BYTES) {
                bytes = new byte[1024];
            }
            return record;
        }
    }
}
