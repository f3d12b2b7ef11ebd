package io.queenlake.format.manifest;

import io.queenlake.format.model.Layout;
import io.queenlake.format.model.LostRange;
import java.util.List;
import java.util.Objects;

/**
 * The manifest of one window ({@code _queen/.../windows/<k:10>.json}), written after its objects
 * and before the commit pointer. Everything in it is a function of the window except
 * {@code committedAt}, the only wall-clock value in the bucket, which the committer stamps with
 * {@link #withCommittedAt} just before writing. The bytes are {@link ManifestJson}'s.
 *
 * @param positions for each partition with records in the window, the offset after its newest
 *     record there, with that record's incarnation (sorted by name in UTF-8 order): folded over
 *     windows {@code 1..k} they give where every partition continues after the pointer, so a start
 *     without Flink state names exactly what retention removed meanwhile. Empty in a manifest of
 *     the reference or of a release before them
 * @param committedAtMicros null until stamped
 */
public record Manifest(
        String sink,
        String tenant,
        String queue,
        long k,
        long tStart,
        long tEnd,
        String format,
        String compression,
        Layout layout,
        List<ManifestObject> objects,
        long records,
        long bytes,
        long partitions,
        long minTs,
        long maxTs,
        List<LostRange> lost,
        List<CheckpointDoc.Position> positions,
        String writer,
        Long committedAtMicros) {

    public Manifest {
        Objects.requireNonNull(sink, "sink");
        Objects.requireNonNull(tenant, "tenant");
        Objects.requireNonNull(queue, "queue");
        Objects.requireNonNull(format, "format");
        Objects.requireNonNull(compression, "compression");
        Objects.requireNonNull(layout, "layout");
        Objects.requireNonNull(writer, "writer");
        objects = List.copyOf(objects);
        lost = List.copyOf(lost);
        positions = CheckpointDoc.Position.sorted(positions);
    }

    /** A manifest without positions, as the reference writes them. */
    public Manifest(String sink, String tenant, String queue, long k, long tStart, long tEnd, String format,
            String compression, Layout layout, List<ManifestObject> objects, long records, long bytes, long partitions,
            long minTs, long maxTs, List<LostRange> lost, String writer, Long committedAtMicros) {
        this(sink, tenant, queue, k, tStart, tEnd, format, compression, layout, objects, records, bytes, partitions,
                minTs, maxTs, lost, List.of(), writer, committedAtMicros);
    }

    /** This manifest stamped at {@code epochMillis} (the reference keeps millisecond precision). */
    public Manifest withCommittedAt(long epochMillis) {
        return new Manifest(sink, tenant, queue, k, tStart, tEnd, format, compression, layout, objects, records,
                bytes, partitions, minTs, maxTs, lost, positions, writer, Math.multiplyExact(epochMillis, 1000L));
    }

    public boolean isStamped() {
        return committedAtMicros != null;
    }

    /**
     * Whether {@code other} describes the same window written by the same writer (the fields the
     * reference compares before it takes a found manifest for a redo); objects are not compared.
     */
    public boolean describesSameWindowAs(Manifest other) {
        return k == other.k && tStart == other.tStart && tEnd == other.tEnd && format.equals(other.format)
                && compression.equals(other.compression) && layout == other.layout && writer.equals(other.writer)
                && sink.equals(other.sink) && tenant.equals(other.tenant) && queue.equals(other.queue);
    }

    /** Whether both name the same objects: same keys and sha256, in the same order. */
    public boolean namesSameObjectsAs(Manifest other) {
        if (objects.size() != other.objects.size()) {
            return false;
        }
        for (int i = 0; i < objects.size(); i++) {
            ManifestObject a = objects.get(i);
            ManifestObject b = other.objects.get(i);
            if (!a.key().equals(b.key()) || !a.sha256().equals(b.sha256())) {
                return false;
            }
        }
        return true;
    }
}
