package io.queenlake.source.serde;

import io.queenlake.format.manifest.CheckpointDoc;
import io.queenlake.format.model.LogRecord;
import io.queenlake.format.model.LostRange;
import io.queenlake.source.QueueRecord;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * The binary form of the lake model values in Flink state and on the wire between tasks: strings
 * in the bytes of Flink's {@code StringValue} ({@link WireStrings}, no 64 KiB limit), payloads as
 * length-prefixed raw bytes, lists as a count then their elements. No Kryo, no reflection.
 *
 * <p>A payload's length is written complemented ({@code ~length}, negative) when the record says
 * its payload was parsed already ({@link LogRecord#payloadParsed}). State written before that
 * flag existed has only non-negative lengths and reads back as unparsed: the encoder then checks
 * those payloads itself and writes the same bytes. The serializers' snapshots did not change
 * version because every earlier form reads as it is; there is no way back, though: an older
 * queen-lake cannot restore a savepoint taken by this one (it refuses the negative length).
 */
@Internal
public final class ModelWire {

    private static final SharedNames NAMES = new SharedNames();

    private ModelWire() {}

    public static void writeQueueRecord(QueueRecord r, DataOutputView out) throws IOException {
        WireStrings.write(r.queue(), out);
        writeLogRecord(r.record(), out);
        out.writeInt(r.lostBefore().size());
        for (LostRange lost : r.lostBefore()) {
            writeLostRange(lost, out);
        }
    }

    public static QueueRecord readQueueRecord(DataInputView in) throws IOException {
        String queue = NAMES.share(WireStrings.read(in));
        LogRecord record = readLogRecord(in);
        int lostCount = count(in, "lost ranges");
        List<LostRange> lost = new ArrayList<>(lostCount);
        for (int i = 0; i < lostCount; i++) {
            lost.add(readLostRange(in));
        }
        return new QueueRecord(queue, record, lost);
    }

    public static void writeLogRecord(LogRecord r, DataOutputView out) throws IOException {
        WireStrings.write(r.partition(), out);
        WireStrings.write(r.partitionId(), out);
        out.writeLong(r.offset());
        WireStrings.write(r.transactionId(), out);
        out.writeLong(r.tsMicros());
        byte[] payload = r.payload();
        out.writeInt(r.payloadParsed() ? ~payload.length : payload.length);
        out.write(payload);
    }

    public static LogRecord readLogRecord(DataInputView in) throws IOException {
        String partition = NAMES.share(WireStrings.read(in));
        String partitionId = NAMES.share(WireStrings.read(in));
        long offset = in.readLong();
        String transactionId = WireStrings.read(in);
        long ts = in.readLong();
        int length = in.readInt();
        boolean parsed = length < 0;
        byte[] payload = new byte[parsed ? ~length : length];
        in.readFully(payload);
        return new LogRecord(partition, partitionId, offset, transactionId, ts, payload, parsed);
    }

    public static void writeLostRange(LostRange lost, DataOutputView out) throws IOException {
        WireStrings.write(lost.partition(), out);
        out.writeLong(lost.from());
        out.writeLong(lost.to());
    }

    public static LostRange readLostRange(DataInputView in) throws IOException {
        return new LostRange(WireStrings.read(in), in.readLong(), in.readLong());
    }

    public static void writePosition(CheckpointDoc.Position p, DataOutputView out) throws IOException {
        WireStrings.write(p.partition(), out);
        out.writeLong(p.offset());
        WireStrings.write(p.partitionId(), out);
    }

    public static CheckpointDoc.Position readPosition(DataInputView in) throws IOException {
        return new CheckpointDoc.Position(WireStrings.read(in), in.readLong(), WireStrings.read(in));
    }

    /** A list or byte count; a negative one means the bytes are not what this serializer wrote. */
    public static int count(DataInputView in, String what) throws IOException {
        int n = in.readInt();
        if (n < 0) {
            throw new IOException("corrupt serialized queen-lake value: negative count " + n + " of " + what);
        }
        return n;
    }
}
