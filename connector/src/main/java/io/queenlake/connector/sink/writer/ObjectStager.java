package io.queenlake.connector.sink.writer;

import io.queenlake.format.window.EncodedObject;
import io.queenlake.connector.sink.CrashPoint;
import io.queenlake.connector.sink.LakeSinkConfig;
import io.queenlake.connector.sink.committable.StagedObject;
import java.io.IOException;
import org.apache.flink.core.fs.RecoverableFsDataOutputStream;
import org.apache.flink.core.fs.RecoverableWriter;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * Stages one encoded object under its final key without making it visible, through the root's
 * {@link RecoverableWriter}, and returns its commit handle. Safe to call from several upload
 * threads at once: every call opens its own stream.
 */
final class ObjectStager {

    private final LakeSinkConfig config;
    private final RecoverableWriter staging;
    private final SimpleVersionedSerializer<RecoverableWriter.CommitRecoverable> handles;

    ObjectStager(LakeSinkConfig config, RecoverableWriter staging) {
        this.config = config;
        this.staging = staging;
        this.handles = staging.getCommitRecoverableSerializer();
    }

    StagedObject stage(EncodedObject object, long k) throws IOException {
        RecoverableFsDataOutputStream out = staging.open(config.pathOf(object.key()));
        byte[] body = object.body();
        int half = body.length / 2;
        out.write(body, 0, half);
        config.crashIfArmed(CrashPoint.MID_STAGING, k);
        out.write(body, half, body.length - half);
        RecoverableWriter.CommitRecoverable handle = out.closeForCommit().getRecoverable();
        return new StagedObject(object.key(), handles.getVersion(), handles.serialize(handle));
    }
}
