package io.queenlake.source.split;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * Versioned bytes of a {@link PartitionSplit} for checkpoints and split assignment. Every version
 * ever written stays readable; bytes of each version are kept under
 * {@code src/test/resources/partition-split-serializer/v<N>} and read back by a test.
 */
@Internal
public final class PartitionSplitSerializer implements SimpleVersionedSerializer<PartitionSplit> {

    static final int VERSION_1 = 1;
    public static final int CURRENT_VERSION = VERSION_1;

    @Override
    public int getVersion() {
        return CURRENT_VERSION;
    }

    @Override
    public byte[] serialize(PartitionSplit split) throws IOException {
        return serializeV1(split);
    }

    @Override
    public PartitionSplit deserialize(int version, byte[] serialized) throws IOException {
        switch (version) {
            case VERSION_1:
                return deserializeV1(serialized);
            default:
                throw new IOException("cannot read a Queen partition split of serializer version " + version
                        + " (this build reads version " + VERSION_1 + " to " + CURRENT_VERSION
                        + "): restore with the queen-lake release that wrote the checkpoint, or start from the commit pointer");
        }
    }

    static byte[] serializeV1(PartitionSplit split) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeUTF(split.queue());
            out.writeUTF(split.partition());
            out.writeUTF(split.partitionId());
            out.writeLong(split.nextOffset());
            out.writeLong(split.skipBelowMicros());
        }
        return bytes.toByteArray();
    }

    private static PartitionSplit deserializeV1(byte[] serialized) throws IOException {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(serialized))) {
            return new PartitionSplit(in.readUTF(), in.readUTF(), in.readUTF(), in.readLong(), in.readLong());
        }
    }
}
