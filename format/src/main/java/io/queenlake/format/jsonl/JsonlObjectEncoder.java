package io.queenlake.format.jsonl;

import io.queenlake.format.codec.Labels;
import io.queenlake.format.codec.ObjectEncoder;
import io.queenlake.format.model.LogRecord;
import io.queenlake.format.order.Utf8ByteOrder;
import io.queenlake.format.run.RecordEncoding;
import io.queenlake.format.run.RunSlice;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Objects;

/**
 * The JSONL object encoder: lines built into a reusable buffer (see {@link JsonlLineWriter}) and
 * streamed in large chunks through the pinned {@link Compression}. Stateless between calls, so
 * one instance may serve many threads. It refuses records that are not in lake order, because
 * the same record set must always give the same bytes.
 */
public final class JsonlObjectEncoder implements ObjectEncoder {

    /** Lines are handed to the compressor in chunks of about this size. */
    static final int CHUNK_BYTES = 128 * 1024;

    private final Compression compression;

    private JsonlObjectEncoder(Compression compression) {
        this.compression = Objects.requireNonNull(compression, "compression");
    }

    public static JsonlObjectEncoder of(Compression compression) {
        return new JsonlObjectEncoder(compression);
    }

    @Override
    public void encode(List<LogRecord> records, Labels labels, OutputStream out) throws IOException {
        JsonlLineWriter lines = new JsonlLineWriter(CHUNK_BYTES + 16 * 1024);
        LineBuffer buffer = lines.buffer;
        OutputStream sink = compression.open(out);
        LogRecord previous = null;
        for (LogRecord r : records) {
            checkOrder(previous, r);
            lines.append(r);
            if (buffer.size >= CHUNK_BYTES) {
                buffer.drainTo(sink);
            }
            previous = r;
        }
        buffer.drainTo(sink);
        sink.close();
    }

    @Override
    public RecordEncoding recordEncoding() {
        return new JsonlLines();
    }

    /** The lines the runs hold, fed to the compressor in the same chunks {@link #encode} feeds it. */
    @Override
    public void encodeRuns(List<RunSlice> inLakeOrder, Labels labels, OutputStream out) throws IOException {
        LineBuffer buffer = new LineBuffer(CHUNK_BYTES + 16 * 1024);
        OutputStream sink = compression.open(out);
        for (RunSlice slice : inLakeOrder) {
            ObjectEncoder.requireEncoding(slice, JsonlLines.NAME);
            for (int i = 0; i < slice.size(); i++) {
                int length = slice.length(i);
                buffer.ensure(length);
                buffer.size += slice.read(i, buffer.bytes, buffer.size);
                if (buffer.size >= CHUNK_BYTES) {
                    buffer.drainTo(sink);
                }
            }
        }
        buffer.drainTo(sink);
        sink.close();
    }

    private static void checkOrder(LogRecord previous, LogRecord r) {
        if (previous == null) {
            return;
        }
        int byName = previous.partition() == r.partition()
                ? 0
                : Utf8ByteOrder.INSTANCE.compare(previous.partition(), r.partition());
        boolean inOrder = byName < 0
                || (byName == 0 && (previous.offset() < r.offset()
                        || (!previous.partitionId().equals(r.partitionId()) && previous.tsMicros() <= r.tsMicros())));
        if (!inOrder) {
            throw new IllegalArgumentException("records must be in lake order (partition name in UTF-8 order, "
                    + "older incarnation first, then offset), but " + r + " follows " + previous
                    + ": sort them with WindowRecordOrder.inLakeOrder first.");
        }
    }

    @Override
    public String toString() {
        return "JsonlObjectEncoder[" + compression.wireName() + "]";
    }
}
