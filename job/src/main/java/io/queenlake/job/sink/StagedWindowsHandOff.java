package io.queenlake.job.sink;

import io.queenlake.job.sink.committable.WindowCommittable;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.datastream.DataStream;

/**
 * Owns the edge between the writer and the committer: every message the writer emits (each
 * staged window's committable and the per-checkpoint summary with its checkpoint id and counts)
 * passes on unchanged, over a forward connection, into a new chain, so the committer runs in a
 * task of its own and its bucket and broker waits never stall the window operator. Forward keeps
 * writer subtask i feeding committer subtask i, in the order written, so one queue's windows
 * still reach one committer subtask in {@code k} order.
 */
final class StagedWindowsHandOff implements MapFunction<CommittableMessage<WindowCommittable>, CommittableMessage<WindowCommittable>> {

    private static final long serialVersionUID = 1L;

    /** Shown as {@code Lake sink: Staged windows} in the web UI, heading the committer's task. */
    static final String NAME = "Staged windows";
    /** Stateless, but explicit so the graph never depends on generated ids; Flink prefixes the sink's uid. */
    static final String UID = "staged-windows";

    static DataStream<CommittableMessage<WindowCommittable>> attach(DataStream<CommittableMessage<WindowCommittable>> written) {
        return written.forward()
                .map(new StagedWindowsHandOff(), written.getType())
                .name(NAME)
                .uid(UID)
                .startNewChain();
    }

    @Override
    public CommittableMessage<WindowCommittable> map(CommittableMessage<WindowCommittable> message) {
        return message;
    }
}
