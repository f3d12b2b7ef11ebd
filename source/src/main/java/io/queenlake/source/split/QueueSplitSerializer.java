package io.queenlake.source.split;

import io.queenlake.format.manifest.CheckpointDoc;
import io.queenlake.format.model.LostRange;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * Versioned bytes of a {@link QueueSplit} for checkpoints and split assignment. Version 1 was the
 * first topology's one split per partition ({@link PartitionSplitSerializer}); a checkpoint of
 * that topology also holds every open window in keyed state, which this topology does not read,
 * so it is refused with the way out: start without state, from the commit pointer, which resumes
 * exactly (docs/ARCHITECTURE.md "Restore"). Every later version stays readable.
 */
@Internal
public final class QueueSplitSerializer implements SimpleVersionedSerializer<QueueSplit> {

    static final int PARTITION_SPLITS = PartitionSplitSerializer.VERSION_1;
    static final int VERSION_2 = 2;
    public static final int CURRENT_VERSION = VERSION_2;

    @Override
    public int getVersion() {
        return CURRENT_VERSION;
    }

    @Override
    public byte[] serialize(QueueSplit split) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64 + 48 * split.partitions().size());
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            write(split, out);
        }
        return bytes.toByteArray();
    }

    @Override
    public QueueSplit deserialize(int version, byte[] serialized) throws IOException {
        if (version == PARTITION_SPLITS) {
            throw new IOException("this checkpoint was written by queen-lake's first topology (one split per partition,"
                    + " open windows in Flink state), which this release cannot continue: start the job without"
                    + " state (no savepoint); each queue resumes exactly from its commit pointer");
        }
        if (version != VERSION_2) {
            throw new IOException("cannot read a Queen queue split of serializer version " + version
                    + " (this build reads version " + VERSION_2 + " to " + CURRENT_VERSION
                    + "): restore with the queen-lake release that wrote the checkpoint, or start from the commit pointer");
        }
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(serialized))) {
            return read(in);
        }
    }

    /** The version 2 form, also used inside the enumerator's state. */
    public static void write(QueueSplit split, DataOutputStream out) throws IOException {
        out.writeUTF(split.queue());
        out.writeInt(split.partitions().size());
        for (PartitionSplit p : split.partitions()) {
            out.writeUTF(p.partition());
            out.writeUTF(p.partitionId());
            out.writeLong(p.nextOffset());
            out.writeLong(p.skipBelowMicros());
        }
        out.writeBoolean(split.cut().isPresent());
        if (split.cut().isPresent()) {
            QueueCut cut = split.cut().get();
            out.writeLong(cut.k());
            out.writeLong(cut.lastEnd());
            out.writeLong(cut.pointerEnd());
            out.writeInt(cut.closedPositions().size());
            for (CheckpointDoc.Position position : cut.closedPositions()) {
                out.writeUTF(position.partition());
                out.writeLong(position.offset());
                out.writeUTF(position.partitionId());
            }
            out.writeInt(cut.pendingLost().size());
            for (LostRange lost : cut.pendingLost()) {
                out.writeUTF(lost.partition());
                out.writeLong(lost.from());
                out.writeLong(lost.to());
            }
        }
    }

    public static QueueSplit read(DataInputStream in) throws IOException {
        String queue = in.readUTF();
        int n = in.readInt();
        List<PartitionSplit> partitions = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            partitions.add(new PartitionSplit(queue, in.readUTF(), in.readUTF(), in.readLong(), in.readLong()));
        }
        Optional<QueueCut> cut = Optional.empty();
        if (in.readBoolean()) {
            long k = in.readLong();
            long lastEnd = in.readLong();
            long pointerEnd = in.readLong();
            int positions = in.readInt();
            List<CheckpointDoc.Position> closed = new ArrayList<>(positions);
            for (int i = 0; i < positions; i++) {
                closed.add(new CheckpointDoc.Position(in.readUTF(), in.readLong(), in.readUTF()));
            }
            int lostCount = in.readInt();
            List<LostRange> lost = new ArrayList<>(lostCount);
            for (int i = 0; i < lostCount; i++) {
                lost.add(new LostRange(in.readUTF(), in.readLong(), in.readLong()));
            }
            cut = Optional.of(new QueueCut(k, lastEnd, pointerEnd, closed, lost));
        }
        return new QueueSplit(queue, partitions, cut);
    }
}
