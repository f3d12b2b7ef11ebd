package io.queenlake.source.serde;

import io.queenlake.format.model.LogRecord;
import io.queenlake.source.QueueRecord;
import java.io.IOException;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.base.TypeSerializerSingleton;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * The serializer of what QueenSource emits, for the keyBy shuffle and the window operator's
 * buffered records (see {@link ModelWire} for the bytes). Values are immutable, so copies are the
 * values themselves.
 */
@Internal
public final class QueueRecordSerializer extends TypeSerializerSingleton<QueueRecord> {

    private static final long serialVersionUID = 1L;

    public static final QueueRecordSerializer INSTANCE = new QueueRecordSerializer();

    private static final QueueRecord EMPTY = QueueRecord.of("", new LogRecord("", "", 0, "", 0, null));

    @Override
    public boolean isImmutableType() {
        return true;
    }

    @Override
    public QueueRecord createInstance() {
        return EMPTY;
    }

    @Override
    public QueueRecord copy(QueueRecord from) {
        return from;
    }

    @Override
    public QueueRecord copy(QueueRecord from, QueueRecord reuse) {
        return from;
    }

    @Override
    public int getLength() {
        return -1;
    }

    @Override
    public void serialize(QueueRecord record, DataOutputView target) throws IOException {
        ModelWire.writeQueueRecord(record, target);
    }

    @Override
    public QueueRecord deserialize(DataInputView source) throws IOException {
        return ModelWire.readQueueRecord(source);
    }

    @Override
    public QueueRecord deserialize(QueueRecord reuse, DataInputView source) throws IOException {
        return deserialize(source);
    }

    @Override
    public void copy(DataInputView source, DataOutputView target) throws IOException {
        serialize(deserialize(source), target);
    }

    @Override
    public TypeSerializerSnapshot<QueueRecord> snapshotConfiguration() {
        return new Snapshot();
    }

    /** Restores {@link #INSTANCE}; a new wire form needs a new snapshot version. */
    public static final class Snapshot extends SimpleTypeSerializerSnapshot<QueueRecord> {
        public Snapshot() {
            super(() -> INSTANCE);
        }
    }
}
