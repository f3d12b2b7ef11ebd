package io.queenlake.connector.sink.writer;

import io.queenlake.connector.window.ClosedWindow;
import io.queenlake.connector.window.ClosedWindowSerializer;
import java.io.IOException;
import java.util.Collection;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.TaskInfo;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;

/**
 * The writer's state: each window it was handed and has not handed on yet (still retrying its
 * upload, or behind such a window of its queue), written as the window operator's output is
 * ({@link ClosedWindowSerializer}).
 *
 * <p>Flink hands a writer's list state back to the same subtask only at the same parallelism; a
 * rescale spreads it round-robin, while the window operator's windows follow the queue's key
 * group. A carried window restored on a subtask that no longer owns its queue would reach another
 * committer than its queue's next windows, which could then meet the pointer one window short and
 * stop the job as fenced. {@link #refuseForeign} refuses that restore instead.
 */
@Internal
public final class CarriedWindowsSerializer implements SimpleVersionedSerializer<ClosedWindow> {

    private static final int VERSION = 1;

    /**
     * Throws, for good (a restart would restore the same state), if a carried window belongs to a
     * queue another subtask owns at this parallelism: a checkpoint taken while uploads were being
     * retried was restored at another parallelism.
     */
    public static void refuseForeign(Collection<ClosedWindow> carried, TaskInfo task) {
        for (ClosedWindow window : carried) {
            int owner = KeyGroupRangeAssignment.assignKeyToParallelOperator(window.queue(),
                    task.getMaxNumberOfParallelSubtasks(), task.getNumberOfParallelSubtasks());
            if (owner != task.getIndexOfThisSubtask()) {
                throw new SuppressRestartsException(new IllegalStateException("the restored state of lake writer "
                        + task.getIndexOfThisSubtask() + " carries window " + window.k() + " of queue '" + window.queue()
                        + "' (its upload was being retried when the checkpoint was taken), which writer " + owner
                        + " owns at parallelism " + task.getNumberOfParallelSubtasks() + ": restore this checkpoint at"
                        + " the parallelism it was taken with, let a checkpoint complete after the bucket takes the"
                        + " uploads again, then rescale from that one"));
            }
        }
    }

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
