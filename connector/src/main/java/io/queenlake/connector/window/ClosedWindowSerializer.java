package io.queenlake.connector.window;

import io.queenlake.format.manifest.CheckpointDoc;
import io.queenlake.format.manifest.Intent;
import io.queenlake.format.model.LogRecord;
import io.queenlake.format.model.LostRange;
import io.queenlake.format.run.RecordRun;
import io.queenlake.format.run.RunSlice;
import io.queenlake.format.window.WindowContent;
import io.queenlake.format.window.WindowInput;
import io.queenlake.format.window.WindowRuns;
import io.queenlake.connector.window.ClosedWindow;
import io.queenlake.source.serde.ModelWire;
import io.queenlake.source.serde.WireStrings;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.base.TypeSerializerSingleton;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * The serializer of the window operator's output, the lake sink's input: the window (tenant,
 * queue, k, bounds, its records, lost ranges) then an optional checkpoint document (a presence byte,
 * k, tEnd, positions), then an optional intent the window redoes (a presence byte, its JSON).
 * See {@link ModelWire} for the parts. The records are either a count and the records, or, for a
 * window kept as runs ({@link WindowRuns}), the negated count of runs and each run: partition,
 * incarnation, encoding, and per record its offset, stamp, weight and encoded bytes. A count is
 * never negative in the first form, so windows written before runs existed read back as they were.
 */
@Internal
public final class ClosedWindowSerializer extends TypeSerializerSingleton<ClosedWindow> {

    private static final long serialVersionUID = 1L;

    public static final ClosedWindowSerializer INSTANCE = new ClosedWindowSerializer();

    private static final ClosedWindow EMPTY = new ClosedWindow(
            new WindowInput("", "", 1, 0, 1, List.of(new LogRecord("", "", 0, "", 0, null)), List.of()),
            Optional.empty());

    @Override
    public boolean isImmutableType() {
        return true;
    }

    @Override
    public ClosedWindow createInstance() {
        return EMPTY;
    }

    @Override
    public ClosedWindow copy(ClosedWindow from) {
        return from;
    }

    @Override
    public ClosedWindow copy(ClosedWindow from, ClosedWindow reuse) {
        return from;
    }

    @Override
    public int getLength() {
        return -1;
    }

    @Override
    public void serialize(ClosedWindow value, DataOutputView out) throws IOException {
        WindowContent w = value.window();
        WireStrings.write(w.tenant(), out);
        WireStrings.write(w.queue(), out);
        out.writeLong(w.k());
        out.writeLong(w.tStart());
        out.writeLong(w.tEnd());
        if (w instanceof WindowRuns runs) {
            writeRuns(runs.runs(), out);
        } else {
            List<LogRecord> records = ((WindowInput) w).records();
            out.writeInt(records.size());
            for (LogRecord r : records) {
                ModelWire.writeLogRecord(r, out);
            }
        }
        out.writeInt(w.lost().size());
        for (LostRange lost : w.lost()) {
            ModelWire.writeLostRange(lost, out);
        }
        out.writeBoolean(value.checkpoint().isPresent());
        if (value.checkpoint().isPresent()) {
            CheckpointDoc cp = value.checkpoint().get();
            out.writeLong(cp.k());
            out.writeLong(cp.tEnd());
            out.writeInt(cp.positions().size());
            for (CheckpointDoc.Position p : cp.positions()) {
                ModelWire.writePosition(p, out);
            }
        }
        out.writeBoolean(value.redo().isPresent());
        if (value.redo().isPresent()) {
            byte[] json = value.redo().get().toJson();
            out.writeInt(json.length);
            out.write(json);
        }
    }

    @Override
    public ClosedWindow deserialize(DataInputView in) throws IOException {
        String tenant = WireStrings.read(in);
        String queue = WireStrings.read(in);
        long k = in.readLong();
        long tStart = in.readLong();
        long tEnd = in.readLong();
        int count = in.readInt();
        List<RunSlice> runs = count < 0 ? readRuns(-count, in) : null;
        List<LogRecord> records = new ArrayList<>(Math.max(count, 0));
        for (int i = 0; i < count; i++) {
            records.add(ModelWire.readLogRecord(in));
        }
        int lostCount = ModelWire.count(in, "lost ranges");
        List<LostRange> lost = new ArrayList<>(lostCount);
        for (int i = 0; i < lostCount; i++) {
            lost.add(ModelWire.readLostRange(in));
        }
        Optional<CheckpointDoc> checkpoint = Optional.empty();
        if (in.readBoolean()) {
            long cpK = in.readLong();
            long cpTEnd = in.readLong();
            int positionCount = ModelWire.count(in, "positions");
            List<CheckpointDoc.Position> positions = new ArrayList<>(positionCount);
            for (int i = 0; i < positionCount; i++) {
                positions.add(ModelWire.readPosition(in));
            }
            checkpoint = Optional.of(new CheckpointDoc(cpK, cpTEnd, positions));
        }
        Optional<Intent> redo = Optional.empty();
        if (in.readBoolean()) {
            byte[] json = new byte[ModelWire.count(in, "intent bytes")];
            in.readFully(json);
            redo = Optional.of(Intent.fromJson(json));
        }
        WindowContent window = runs != null
                ? new WindowRuns(tenant, queue, k, tStart, tEnd, runs, lost)
                : new WindowInput(tenant, queue, k, tStart, tEnd, records, lost);
        return new ClosedWindow(window, checkpoint, redo);
    }

    private static void writeRuns(List<RunSlice> runs, DataOutputView out) throws IOException {
        out.writeInt(-runs.size());
        byte[] buffer = new byte[256];
        for (RunSlice run : runs) {
            WireStrings.write(run.partition(), out);
            WireStrings.write(run.partitionId(), out);
            WireStrings.write(run.encoding(), out);
            out.writeInt(run.size());
            for (int i = 0; i < run.size(); i++) {
                int length = run.length(i);
                if (buffer.length < length) {
                    buffer = new byte[Math.max(length, buffer.length * 2)];
                }
                run.read(i, buffer, 0);
                out.writeLong(run.offset(i));
                out.writeLong(run.stamp(i));
                out.writeInt(run.weight(i));
                out.writeInt(length);
                out.write(buffer, 0, length);
            }
        }
    }

    private static List<RunSlice> readRuns(int count, DataInputView in) throws IOException {
        List<RunSlice> runs = new ArrayList<>(count);
        for (int r = 0; r < count; r++) {
            RecordRun run = new RecordRun(WireStrings.read(in), WireStrings.read(in), WireStrings.read(in));
            int size = ModelWire.count(in, "run records");
            for (int i = 0; i < size; i++) {
                long offset = in.readLong();
                long stamp = in.readLong();
                int weight = in.readInt();
                byte[] bytes = new byte[ModelWire.count(in, "record bytes")];
                in.readFully(bytes);
                run.add(offset, stamp, weight, bytes, 0, bytes.length);
            }
            runs.add(run.all());
        }
        return runs;
    }

    @Override
    public ClosedWindow deserialize(ClosedWindow reuse, DataInputView source) throws IOException {
        return deserialize(source);
    }

    @Override
    public void copy(DataInputView source, DataOutputView target) throws IOException {
        serialize(deserialize(source), target);
    }

    @Override
    public TypeSerializerSnapshot<ClosedWindow> snapshotConfiguration() {
        return new Snapshot();
    }

    /** Restores {@link #INSTANCE}; a new wire form needs a new snapshot version. */
    public static final class Snapshot extends SimpleTypeSerializerSnapshot<ClosedWindow> {
        public Snapshot() {
            super(() -> INSTANCE);
        }
    }
}
