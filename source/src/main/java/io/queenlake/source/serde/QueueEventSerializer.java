package io.queenlake.source.serde;

import io.queenlake.format.manifest.Committed;
import io.queenlake.format.manifest.Intent;
import io.queenlake.source.PointerAtStart;
import io.queenlake.source.QueueEvent;
import io.queenlake.source.QueueFrontier;
import io.queenlake.source.QueueRecord;
import io.queenlake.source.QueueStart;
import io.queenlake.source.split.QueueSplit;
import io.queenlake.source.split.QueueSplitSerializer;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.base.TypeSerializerSingleton;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * The serializer of what QueenSource emits into the windows chained to it. Chained, nothing is
 * ever written (values are immutable, so a copy is the value itself); the bytes exist because
 * Flink asks every edge for a serializer: a tag, then a record in {@link ModelWire}'s form, a
 * frontier (queue, micros), or a start (queue, its cut in {@link QueueSplitSerializer}'s form,
 * then the pointer and intent read for it as their KV JSON, each after a presence byte). No state
 * holds these events, so the wire form may change between releases.
 */
@Internal
public final class QueueEventSerializer extends TypeSerializerSingleton<QueueEvent> {

    private static final long serialVersionUID = 1L;

    public static final QueueEventSerializer INSTANCE = new QueueEventSerializer();

    private static final byte RECORD = 0;
    private static final byte FRONTIER = 1;
    private static final byte START = 2;

    @Override
    public boolean isImmutableType() {
        return true;
    }

    @Override
    public QueueEvent createInstance() {
        return new QueueFrontier("", Long.MIN_VALUE);
    }

    @Override
    public QueueEvent copy(QueueEvent from) {
        return from;
    }

    @Override
    public QueueEvent copy(QueueEvent from, QueueEvent reuse) {
        return from;
    }

    @Override
    public int getLength() {
        return -1;
    }

    @Override
    public void serialize(QueueEvent event, DataOutputView target) throws IOException {
        if (event instanceof QueueRecord record) {
            target.writeByte(RECORD);
            ModelWire.writeQueueRecord(record, target);
        } else if (event instanceof QueueFrontier frontier) {
            target.writeByte(FRONTIER);
            WireStrings.write(frontier.queue(), target);
            target.writeLong(frontier.frontierMicros());
        } else if (event instanceof QueueStart start) {
            target.writeByte(START);
            byte[] split = new QueueSplitSerializer().serialize(new QueueSplit(start.queue(), List.of(), start.cut()));
            target.writeInt(split.length);
            target.write(split);
            target.writeBoolean(start.pointer().isPresent());
            if (start.pointer().isPresent()) {
                writeOptional(start.pointer().get().committed().map(Committed::toJson), target);
                writeOptional(start.pointer().get().intent().map(Intent::toJson), target);
            }
        } else {
            throw new IOException("cannot serialize queue event " + event);
        }
    }

    @Override
    public QueueEvent deserialize(DataInputView source) throws IOException {
        byte tag = source.readByte();
        switch (tag) {
            case RECORD:
                return ModelWire.readQueueRecord(source);
            case FRONTIER:
                return new QueueFrontier(WireStrings.read(source), source.readLong());
            case START:
                byte[] bytes = new byte[source.readInt()];
                source.readFully(bytes);
                QueueSplit split = new QueueSplitSerializer().deserialize(QueueSplitSerializer.CURRENT_VERSION, bytes);
                Optional<PointerAtStart> pointer = Optional.empty();
                if (source.readBoolean()) {
                    pointer = Optional.of(new PointerAtStart(readOptional(source).map(Committed::fromJson),
                            readOptional(source).map(Intent::fromJson)));
                }
                return new QueueStart(split.queue(), split.cut(), pointer);
            default:
                throw new IOException("unknown queue event tag " + tag + ": the stream is corrupt");
        }
    }

    private static void writeOptional(Optional<byte[]> json, DataOutputView target) throws IOException {
        target.writeInt(json.map(b -> b.length).orElse(-1));
        if (json.isPresent()) {
            target.write(json.get());
        }
    }

    private static Optional<byte[]> readOptional(DataInputView source) throws IOException {
        int length = source.readInt();
        if (length < 0) {
            return Optional.empty();
        }
        byte[] json = new byte[length];
        source.readFully(json);
        return Optional.of(json);
    }

    @Override
    public QueueEvent deserialize(QueueEvent reuse, DataInputView source) throws IOException {
        return deserialize(source);
    }

    @Override
    public void copy(DataInputView source, DataOutputView target) throws IOException {
        serialize(deserialize(source), target);
    }

    @Override
    public TypeSerializerSnapshot<QueueEvent> snapshotConfiguration() {
        return new Snapshot();
    }

    /** Restores {@link #INSTANCE}; a new wire form needs a new snapshot version. */
    public static final class Snapshot extends SimpleTypeSerializerSnapshot<QueueEvent> {
        public Snapshot() {
            super(() -> INSTANCE);
        }
    }
}
