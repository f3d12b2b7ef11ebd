package io.queenlake.source.enumerator;

import io.queenlake.source.enumerator.start.StartDecision;
import io.queenlake.source.split.QueueSplit;
import io.queenlake.source.split.QueueSplitSerializer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * Versioned bytes of {@link QueenEnumState}. Every version ever written stays readable (switch on
 * the version; old writers kept for tests); bytes of each version live under
 * {@code src/test/resources/queen-enum-state-serializer/v<N>} and are read back by a test.
 *
 * <p>Version 1 was the first topology's (one split per partition); its checkpoints are refused
 * with the way out (see {@link QueueSplitSerializer}). Version 2: passes, lastSafeTime,
 * parallelism; queues (name, start kind and micros, flags (assigned, owner unknown), partitions
 * (name, id, lastOffset, logStart, replaced id, replaced lastOffset)); pending queue splits in
 * {@link QueueSplitSerializer}'s form. Strings are length-prefixed UTF-8, so no name length limit
 * applies.
 */
@Internal
public final class QueenEnumStateSerializer implements SimpleVersionedSerializer<QueenEnumState> {

    static final int VERSION_1 = 1;
    static final int VERSION_2 = 2;
    public static final int CURRENT_VERSION = VERSION_2;

    private static final int ASSIGNED = 1;
    private static final int OWNER_UNKNOWN = 2;

    @Override
    public int getVersion() {
        return CURRENT_VERSION;
    }

    @Override
    public byte[] serialize(QueenEnumState state) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeLong(state.passes());
            out.writeLong(state.lastSafeTimeMicros());
            out.writeInt(state.parallelism());
            out.writeInt(state.queues().size());
            for (QueenEnumState.QueueEntry queue : state.queues()) {
                writeString(out, queue.queue());
                out.writeByte(queue.start().kind().ordinal());
                out.writeLong(queue.start().micros());
                out.writeByte((queue.assigned() ? ASSIGNED : 0) | (queue.ownerUnknown() ? OWNER_UNKNOWN : 0));
                out.writeInt(queue.partitions().size());
                for (QueenEnumState.PartitionEntry p : queue.partitions()) {
                    writeString(out, p.name());
                    writeString(out, p.id());
                    out.writeLong(p.lastOffset());
                    out.writeLong(p.logStart());
                    writeString(out, p.replacedId());
                    out.writeLong(p.replacedLastOffset());
                }
            }
            out.writeInt(state.pendingSplits().size());
            for (QueueSplit split : state.pendingSplits()) {
                QueueSplitSerializer.write(split, out);
            }
        }
        return bytes.toByteArray();
    }

    @Override
    public QueenEnumState deserialize(int version, byte[] serialized) throws IOException {
        switch (version) {
            case VERSION_1:
                throw new IOException("this checkpoint was written by queen-lake's first topology (one split per"
                        + " partition, open windows in Flink state), which this release cannot continue: start the job"
                        + " without state (no savepoint); each queue resumes exactly from its commit pointer");
            case VERSION_2:
                return deserializeV2(serialized);
            default:
                throw new IOException("cannot read a QueenSource enumerator state of serializer version " + version
                        + " (this build reads version " + VERSION_2 + " to " + CURRENT_VERSION
                        + "): restore with the queen-lake release that wrote the checkpoint, or start without state from the commit pointer");
        }
    }

    private static QueenEnumState deserializeV2(byte[] serialized) throws IOException {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(serialized))) {
            long passes = in.readLong();
            long lastSafeTime = in.readLong();
            int parallelism = in.readInt();
            int queueCount = count(in);
            List<QueenEnumState.QueueEntry> queues = new ArrayList<>(queueCount);
            for (int q = 0; q < queueCount; q++) {
                String queue = readString(in);
                int kind = in.readUnsignedByte();
                if (kind >= StartDecision.Kind.values().length) {
                    throw new IOException("the enumerator state names start kind " + kind + " for queue '" + queue
                            + "', which version 2 does not define: the checkpoint is corrupt");
                }
                StartDecision start = new StartDecision(StartDecision.Kind.values()[kind], in.readLong());
                int flags = in.readUnsignedByte();
                int partitionCount = count(in);
                List<QueenEnumState.PartitionEntry> partitions = new ArrayList<>(partitionCount);
                for (int p = 0; p < partitionCount; p++) {
                    partitions.add(new QueenEnumState.PartitionEntry(readString(in), readString(in), in.readLong(),
                            in.readLong(), readString(in), in.readLong()));
                }
                queues.add(new QueenEnumState.QueueEntry(
                        queue, start, partitions, (flags & ASSIGNED) != 0, (flags & OWNER_UNKNOWN) != 0));
            }
            int pendingCount = count(in);
            List<QueueSplit> pending = new ArrayList<>(pendingCount);
            for (int i = 0; i < pendingCount; i++) {
                pending.add(QueueSplitSerializer.read(in));
            }
            if (in.available() > 0) {
                throw new IOException("the enumerator state has " + in.available()
                        + " bytes after its end: the checkpoint is corrupt or of another version");
            }
            return new QueenEnumState(passes, lastSafeTime, parallelism, queues, pending);
        }
    }

    private static int count(DataInputStream in) throws IOException {
        int n = in.readInt();
        if (n < 0) {
            throw new IOException("the enumerator state has a negative count " + n + ": the checkpoint is corrupt");
        }
        return n;
    }

    private static void writeString(DataOutputStream out, String s) throws IOException {
        byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(utf8.length);
        out.write(utf8);
    }

    private static String readString(DataInputStream in) throws IOException {
        int length = count(in);
        if (length > in.available()) {
            throw new IOException("the enumerator state has a string of " + length + " bytes but only "
                    + in.available() + " remain: the checkpoint is corrupt");
        }
        byte[] utf8 = new byte[length];
        in.readFully(utf8);
        return new String(utf8, StandardCharsets.UTF_8);
    }
}
