package io.queenlake.job.serde;

import io.queenlake.format.manifest.CheckpointDoc;
import java.io.IOException;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.base.TypeSerializerSingleton;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/** The serializer of one partition's resume position, kept per queue in the window operator's state. */
public final class ResumePositionSerializer extends TypeSerializerSingleton<CheckpointDoc.Position> {

    private static final long serialVersionUID = 1L;

    public static final ResumePositionSerializer INSTANCE = new ResumePositionSerializer();

    @Override
    public boolean isImmutableType() {
        return true;
    }

    @Override
    public CheckpointDoc.Position createInstance() {
        return new CheckpointDoc.Position("", 0, "");
    }

    @Override
    public CheckpointDoc.Position copy(CheckpointDoc.Position from) {
        return from;
    }

    @Override
    public CheckpointDoc.Position copy(CheckpointDoc.Position from, CheckpointDoc.Position reuse) {
        return from;
    }

    @Override
    public int getLength() {
        return -1;
    }

    @Override
    public void serialize(CheckpointDoc.Position position, DataOutputView target) throws IOException {
        ModelWire.writePosition(position, target);
    }

    @Override
    public CheckpointDoc.Position deserialize(DataInputView source) throws IOException {
        return ModelWire.readPosition(source);
    }

    @Override
    public CheckpointDoc.Position deserialize(CheckpointDoc.Position reuse, DataInputView source) throws IOException {
        return deserialize(source);
    }

    @Override
    public void copy(DataInputView source, DataOutputView target) throws IOException {
        serialize(deserialize(source), target);
    }

    @Override
    public TypeSerializerSnapshot<CheckpointDoc.Position> snapshotConfiguration() {
        return new Snapshot();
    }

    /** Restores {@link #INSTANCE}. */
    public static final class Snapshot extends SimpleTypeSerializerSnapshot<CheckpointDoc.Position> {
        public Snapshot() {
            super(() -> INSTANCE);
        }
    }
}
