package io.queenlake.job.sink.writer;

import io.queenlake.job.window.ClosedWindow;
import io.queenlake.job.window.ClosedWindowSerializer;
import java.io.IOException;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/**
 * The writer's state: each window it was handed and has not handed on yet (still retrying its
 * upload, or behind such a window of its queue), written as the window operator's output is
 * ({@link ClosedWindowSerializer}).
 */
public final class CarriedWindowsSerializer implements SimpleVersionedSerializer<ClosedWindow> {

    private static final int VERSION = 1;

    @Override
    public int getVersion() {
        return VERSION;
    }

    @Override
    public byte[] serialize(ClosedWindow window) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(256);
        ClosedWindowSerializer.INSTANCE.serialize(window, out);
        return out.getCopyOfBuffer();
    }

    @Override
    public ClosedWindow deserialize(int version, byte[] serialized) throws IOException {
        if (version != VERSION) {
            throw new IOException("a carried window of writer state version " + version + " (this build reads "
                    + VERSION + "): restore with the build that took the checkpoint");
        }
        return ClosedWindowSerializer.INSTANCE.deserialize(new DataInputDeserializer(serialized));
    }
}
