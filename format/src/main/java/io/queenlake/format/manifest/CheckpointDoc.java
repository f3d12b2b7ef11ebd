package io.queenlake.format.manifest;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.luben.zstd.Zstd;
import io.queenlake.format.order.Utf8ByteOrder;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * The checkpoint object ({@code _queen/.../checkpoint/<k:10>.json.zst}), a resume cache never
 * needed for correctness: one zstd frame (level 3) of
 * {@code {"k":3,"tEnd":<micros>,"positions":[["a",4,"<id>"],["b",9]]}}, positions sorted by name
 * in UTF-8 order (stable). A position without an id is the reference 1.5 form (unknown
 * incarnation); extra elements are ignored.
 */
public record CheckpointDoc(long k, long tEnd, List<Position> positions) {

    /** Decompressed checkpoints larger than this are refused, as the reference does. */
    public static final long MAX_DECODED_BYTES = 512L * 1024 * 1024;

    /**
     * Where a restart may read one partition from without missing anything at or after tEnd.
     *
     * @param partitionId the incarnation id, empty when unknown
     */
    public record Position(String partition, long offset, String partitionId) {
        public Position {
            Objects.requireNonNull(partition, "partition");
            partitionId = partitionId == null ? "" : partitionId;
        }

        /** {@code [name, offset]} or {@code [name, offset, id]}, as the checkpoint and the manifest write it. */
        void write(JsonOut out) {
            out.beginArray().value(partition).value(offset);
            if (!partitionId.isEmpty()) {
                out.value(partitionId);
            }
            out.endArray();
        }

        /** One element of a {@code positions} array, as {@link JsonIn#array} gives it. */
        static Position read(String document, Object o) {
            if (!(o instanceof JsonNode tuple) || !tuple.isArray() || tuple.size() < 2 || !tuple.get(0).isTextual()
                    || !tuple.get(1).isIntegralNumber() || !tuple.get(1).canConvertToLong()) {
                throw new IllegalArgumentException(
                        "the " + document + " has a position that is not [name, offset] or [name, offset, id]: " + o);
            }
            String id = tuple.size() > 2 && tuple.get(2).isTextual() ? tuple.get(2).textValue() : "";
            return new Position(tuple.get(0).textValue(), tuple.get(1).longValue(), id);
        }

        /** Sorted by name in UTF-8 order, the order both documents write. */
        static List<Position> sorted(List<Position> positions) {
            List<Position> sorted = new ArrayList<>(positions);
            sorted.sort(Comparator.comparing(Position::partition, Utf8ByteOrder.INSTANCE));
            return List.copyOf(sorted);
        }
    }

    public CheckpointDoc {
        positions = Position.sorted(positions);
    }

    public byte[] toJson() {
        JsonOut out = new JsonOut().beginObject().field("k", k).field("tEnd", tEnd);
        out.name("positions").beginArray();
        for (Position p : positions) {
            p.write(out);
        }
        return out.endArray().endObject().toBytes();
    }

    /** The object body: the JSON as one zstd frame at level 3. */
    public byte[] toObjectBytes() {
        return Zstd.compress(toJson(), 3);
    }

    public static CheckpointDoc fromJson(byte[] json) {
        JsonIn in = JsonIn.parse("checkpoint", json);
        List<Position> positions = new ArrayList<>();
        for (Object o : in.array("positions")) {
            positions.add(Position.read("checkpoint", o));
        }
        return new CheckpointDoc(in.integer("k"), in.stamp("tEnd"), positions);
    }

    /** Reads a checkpoint object; a corrupt one is an {@link IllegalArgumentException} the caller logs and ignores. */
    public static CheckpointDoc fromObjectBytes(byte[] body) {
        long size = Zstd.getFrameContentSize(body);
        if (size > MAX_DECODED_BYTES) {
            throw new IllegalArgumentException("the checkpoint object decodes to " + size
                    + " bytes, above the " + MAX_DECODED_BYTES + " byte cap");
        }
        byte[] json;
        try {
            json = size > 0 ? Zstd.decompress(body, (int) size) : decompressStreaming(body);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("the checkpoint object is not a zstd frame: " + e.getMessage(), e);
        }
        return fromJson(json);
    }

    private static byte[] decompressStreaming(byte[] body) {
        try (var in = new com.github.luben.zstd.ZstdInputStreamNoFinalizer(new java.io.ByteArrayInputStream(body));
                var out = new java.io.ByteArrayOutputStream()) {
            byte[] chunk = new byte[64 * 1024];
            long total = 0;
            for (int n; (n = in.read(chunk)) > 0; ) {
                total += n;
                if (total > MAX_DECODED_BYTES) {
                    throw new IllegalArgumentException("the checkpoint object decodes to more than "
                            + MAX_DECODED_BYTES + " bytes");
                }
                out.write(chunk, 0, n);
            }
            return out.toByteArray();
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("the checkpoint object is not a zstd frame: " + e.getMessage(), e);
        }
    }
}
