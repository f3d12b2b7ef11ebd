package io.queenlake.connector.sink.committable;

import io.queenlake.format.key.DataKey;
import io.queenlake.format.manifest.CheckpointDoc;
import io.queenlake.format.manifest.Manifest;
import io.queenlake.format.manifest.ManifestObject;
import io.queenlake.format.model.Layout;
import io.queenlake.format.model.LostRange;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * The committable's bytes in Flink's checkpoints and savepoints. Starts with a magic number and
 * switches on the version from the first release, so a later version can still read the bytes of
 * every earlier one (kept under {@code src/test/resources/window-committable-serializer/v<N>}); an
 * unknown version is an {@link IOException} naming it. Version 2 appends the manifest's resume
 * positions; a version 1 committable has none, and its manifest is written without them. Strings are length-prefixed UTF-8 (no 64 KiB limit), the
 * checkpoint document is its compact JSON.
 */
@Internal
public final class WindowCommittableSerializer implements SimpleVersionedSerializer<WindowCommittable> {

    /** "QLWC": queen-lake window committable. */
    static final int MAGIC = 0x514C5743;
    static final int VERSION_1 = 1;
    static final int VERSION_2 = 2;
    static final int CURRENT = VERSION_2;

    @Override
    public int getVersion() {
        return CURRENT;
    }

    @Override
    public byte[] serialize(WindowCommittable c) throws IOException {
        return serializeV2(c);
    }

    @Override
    public WindowCommittable deserialize(int version, byte[] serialized) throws IOException {
        return switch (version) {
            case VERSION_1, VERSION_2 -> read(version, serialized);
            default -> throw new IOException("cannot read a window committable of serializer version " + version
                    + " (this build reads version " + VERSION_1 + " to " + CURRENT
                    + "): restore the savepoint with the queen-lake release that wrote it, or start without state");
        };
    }

    static byte[] serializeV2(WindowCommittable c) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        DataOutputStream out = new DataOutputStream(bytes);
        writeV1Fields(out, c);
        List<CheckpointDoc.Position> positions = c.manifest().positions();
        out.writeInt(positions.size());
        for (CheckpointDoc.Position p : positions) {
            writeString(out, p.partition());
            out.writeLong(p.offset());
            writeString(out, p.partitionId());
        }
        out.flush();
        return bytes.toByteArray();
    }

    /** Version 1's bytes, kept to show that this build still reads them. */
    static byte[] serializeV1(WindowCommittable c) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        DataOutputStream out = new DataOutputStream(bytes);
        writeV1Fields(out, c);
        out.flush();
        return bytes.toByteArray();
    }

    private static void writeV1Fields(DataOutputStream out, WindowCommittable c) throws IOException {
        Manifest m = c.manifest();
        out.writeInt(MAGIC);
        writeString(out, m.sink());
        writeString(out, m.tenant());
        writeString(out, m.queue());
        out.writeLong(m.k());
        out.writeLong(m.tStart());
        out.writeLong(m.tEnd());
        writeString(out, m.format());
        writeString(out, m.compression());
        writeString(out, m.layout().wireName());
        writeString(out, m.writer());
        out.writeLong(m.records());
        out.writeLong(m.bytes());
        out.writeLong(m.partitions());
        out.writeLong(m.minTs());
        out.writeLong(m.maxTs());
        out.writeInt(m.lost().size());
        for (LostRange r : m.lost()) {
            writeString(out, r.partition());
            out.writeLong(r.from());
            out.writeLong(r.to());
        }
        out.writeInt(m.objects().size());
        for (int i = 0; i < m.objects().size(); i++) {
            ManifestObject o = m.objects().get(i);
            StagedObject s = c.staged().get(i);
            writeString(out, o.key());
            out.writeLong(o.bytes());
            out.writeLong(o.records());
            writeString(out, o.sha256());
            out.writeBoolean(o.slice() != null);
            if (o.slice() != null) {
                writeString(out, o.slice().partition());
                out.writeLong(o.slice().firstOffset());
                out.writeLong(o.slice().lastOffset());
            }
            out.writeInt(s.recoverableVersion());
            writeBytes(out, s.recoverable());
        }
        out.writeBoolean(c.checkpoint().isPresent());
        if (c.checkpoint().isPresent()) {
            writeBytes(out, c.checkpoint().get().toJson());
        }
    }

    private static WindowCommittable read(int version, byte[] serialized) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(serialized));
        int magic = in.readInt();
        if (magic != MAGIC) {
            throw new IOException("the bytes are not a queen-lake window committable (magic number "
                    + Integer.toHexString(magic) + " instead of " + Integer.toHexString(MAGIC) + ")");
        }
        String sink = readString(in);
        String tenant = readString(in);
        String queue = readString(in);
        long k = in.readLong();
        long tStart = in.readLong();
        long tEnd = in.readLong();
        String format = readString(in);
        String compression = readString(in);
        Layout layout = Layout.parse(readString(in));
        String writer = readString(in);
        long records = in.readLong();
        long bytes = in.readLong();
        long partitions = in.readLong();
        long minTs = in.readLong();
        long maxTs = in.readLong();
        int lostCount = in.readInt();
        List<LostRange> lost = new ArrayList<>(lostCount);
        for (int i = 0; i < lostCount; i++) {
            lost.add(new LostRange(readString(in), in.readLong(), in.readLong()));
        }
        int objectCount = in.readInt();
        List<ManifestObject> objects = new ArrayList<>(objectCount);
        List<StagedObject> staged = new ArrayList<>(objectCount);
        for (int i = 0; i < objectCount; i++) {
            String key = readString(in);
            long objectBytes = in.readLong();
            long objectRecords = in.readLong();
            String sha256 = readString(in);
            DataKey.PartitionSlice slice = in.readBoolean()
                    ? new DataKey.PartitionSlice(readString(in), in.readLong(), in.readLong())
                    : null;
            objects.add(new ManifestObject(key, objectBytes, objectRecords, sha256, slice));
            staged.add(new StagedObject(key, in.readInt(), readBytes(in)));
        }
        Optional<CheckpointDoc> checkpoint = in.readBoolean()
                ? Optional.of(CheckpointDoc.fromJson(readBytes(in)))
                : Optional.empty();
        List<CheckpointDoc.Position> positions = new ArrayList<>();
        if (version >= VERSION_2) {
            int positionCount = in.readInt();
            for (int i = 0; i < positionCount; i++) {
                positions.add(new CheckpointDoc.Position(readString(in), in.readLong(), readString(in)));
            }
        }
        if (in.available() > 0) {
            throw new IOException("a version " + version + " window committable of queue '" + queue + "' k=" + k
                    + " has " + in.available() + " trailing bytes: the bytes are corrupt");
        }
        Manifest manifest = new Manifest(sink, tenant, queue, k, tStart, tEnd, format, compression, layout, objects,
                records, bytes, partitions, minTs, maxTs, lost, positions, writer, null);
        return new WindowCommittable(manifest, staged, checkpoint);
    }

    private static void writeString(DataOutputStream out, String s) throws IOException {
        writeBytes(out, s.getBytes(StandardCharsets.UTF_8));
    }

    private static String readString(DataInputStream in) throws IOException {
        return new String(readBytes(in), StandardCharsets.UTF_8);
    }

    private static void writeBytes(DataOutputStream out, byte[] b) throws IOException {
        out.writeInt(b.length);
        out.write(b);
    }

    private static byte[] readBytes(DataInputStream in) throws IOException {
        int length = in.readInt();
        if (length < 0 || length > in.available()) {
            throw new IOException("a window committable announces " + length + " bytes where " + in.available()
                    + " remain: the bytes are truncated or corrupt");
        }
        return in.readNBytes(length);
    }
}
