package io.queenlake.format.manifest;

import io.queenlake.format.model.Layout;
import io.queenlake.format.model.LostRange;
import java.util.ArrayList;
import java.util.List;

/**
 * The manifest's JSON: compact, the fields in docs/LAKE-FORMAT.md's order. The reader accepts what
 * the reference writes, including manifests of queen-s3 1.5 (no {@code tenant}: the default
 * tenant) and stamps as integers or ISO strings.
 */
public final class ManifestJson {

    /** The tenant of a broker without tenancy. */
    public static final String DEFAULT_TENANT = "00000000-0000-0000-0000-000000000001";

    private ManifestJson() {}

    /** The manifest's bytes; refuses a manifest whose {@code committedAt} is not stamped yet. */
    public static byte[] write(Manifest m) {
        if (!m.isStamped()) {
            throw new IllegalStateException("manifest " + m.k() + " of queue '" + m.queue()
                    + "' has no committedAt: stamp it with withCommittedAt before writing it.");
        }
        JsonOut out = new JsonOut().beginObject()
                .field("sink", m.sink())
                .field("tenant", m.tenant())
                .field("queue", m.queue())
                .field("k", m.k())
                .field("tStart", m.tStart())
                .field("tEnd", m.tEnd())
                .field("format", m.format())
                .field("compression", m.compression())
                .field("layout", m.layout().wireName());
        out.name("objects").beginArray();
        for (ManifestObject o : m.objects()) {
            o.write(out);
        }
        out.endArray()
                .field("records", m.records())
                .field("bytes", m.bytes())
                .field("partitions", m.partitions())
                .field("minTs", m.minTs())
                .field("maxTs", m.maxTs());
        out.name("lost").beginArray();
        for (LostRange r : m.lost()) {
            out.beginObject().field("partition", r.partition()).field("from", r.from()).field("to", r.to()).endObject();
        }
        out.endArray();
        // Only when known: a manifest read without them is written back byte for byte.
        if (!m.positions().isEmpty()) {
            out.name("positions").beginArray();
            for (CheckpointDoc.Position p : m.positions()) {
                p.write(out);
            }
            out.endArray();
        }
        out.field("writer", m.writer())
                .name("committedAt").stamp(m.committedAtMicros());
        return out.endObject().toBytes();
    }

    public static Manifest read(byte[] json) {
        JsonIn in = JsonIn.parse("manifest", json);
        List<ManifestObject> objects = new ArrayList<>();
        for (Object o : in.array("objects")) {
            objects.add(ManifestObject.read(JsonIn.of("manifest object", o)));
        }
        List<LostRange> lost = new ArrayList<>();
        for (Object o : in.arrayOrEmpty("lost")) {
            JsonIn r = JsonIn.of("manifest lost range", o);
            lost.add(new LostRange(r.string("partition"), r.integer("from"), r.integer("to")));
        }
        List<CheckpointDoc.Position> positions = new ArrayList<>();
        for (Object o : in.arrayOrEmpty("positions")) {
            positions.add(CheckpointDoc.Position.read("manifest", o));
        }
        return new Manifest(
                in.string("sink"),
                in.stringOr("tenant", DEFAULT_TENANT),
                in.string("queue"),
                in.integer("k"),
                in.stamp("tStart"),
                in.stamp("tEnd"),
                in.string("format"),
                in.string("compression"),
                Layout.parse(in.string("layout")),
                objects,
                in.integer("records"),
                in.integer("bytes"),
                in.integer("partitions"),
                in.stamp("minTs"),
                in.stamp("maxTs"),
                lost,
                positions,
                in.string("writer"),
                in.has("committedAt") ? in.stamp("committedAt") : null);
    }
}
