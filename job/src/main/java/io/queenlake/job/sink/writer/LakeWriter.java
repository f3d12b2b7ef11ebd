package io.queenlake.job.sink.writer;

import io.queenlake.format.window.EncodedObject;
import io.queenlake.format.window.EncodedWindow;
import io.queenlake.format.window.WindowEncoder;
import io.queenlake.job.sink.CrashPoint;
import io.queenlake.job.sink.LakeSinkConfig;
import io.queenlake.job.sink.committable.StagedObject;
import io.queenlake.job.sink.committable.WindowCommittable;
import io.queenlake.job.window.ClosedWindow;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.apache.flink.api.common.operators.MailboxExecutor;
import org.apache.flink.api.connector.sink2.CommittingSinkWriter;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.RecoverableFsDataOutputStream;
import org.apache.flink.core.fs.RecoverableWriter;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pre-commit half of the sink: encodes each closed window and stages every object under its
 * final key without making it visible, through the {@link RecoverableWriter} of the root's file
 * system (an uncompleted multipart upload on {@code s3://}, a hidden in-progress file on
 * {@code file://}); {@code prepareCommit} hands one {@link WindowCommittable} per window staged
 * since the last checkpoint.
 *
 * <p>It keeps no Flink state: every window is fully staged inside {@link #write} and handed on at
 * the next {@code prepareCommit}, so a checkpoint never holds a half-staged window. A failure
 * before the checkpoint completes rewinds the window operator, which fires the window again, and
 * the identical bytes are staged again. Never publishes anything: that is the committer's job.
 */
public final class LakeWriter implements CommittingSinkWriter<ClosedWindow, WindowCommittable> {

    private static final Logger LOG = LoggerFactory.getLogger(LakeWriter.class);

    private final LakeSinkConfig config;
    private final MailboxExecutor mailbox;
    private final WindowEncoder encoder;
    private final RecoverableWriter staging;
    private final SimpleVersionedSerializer<RecoverableWriter.CommitRecoverable> handles;
    private final List<WindowCommittable> pending = new ArrayList<>();

    public LakeWriter(LakeSinkConfig config, MailboxExecutor mailbox) throws IOException {
        this.config = config;
        this.mailbox = mailbox;
        this.encoder = new WindowEncoder(config.writerSettings(), config.prefix(), config.sinkName());
        this.staging = FileSystem.get(config.pathOf("").toUri()).createRecoverableWriter();
        this.handles = staging.getCommitRecoverableSerializer();
    }

    @Override
    public void write(ClosedWindow window, Context context) throws IOException {
        config.crashIfArmed(CrashPoint.AFTER_WINDOW_FIRES_BEFORE_STAGING, window.k());
        if (!window.window().tenant().equals(config.tenant())) {
            throw new IllegalArgumentException("window " + window.k() + " of queue '" + window.queue()
                    + "' belongs to tenant " + window.window().tenant() + " but this sink writes tenant "
                    + config.tenant() + ": run one sink per tenant.");
        }
        EncodedWindow encoded = encoder.encode(window.window());
        List<StagedObject> staged = new ArrayList<>(encoded.objects().size());
        for (EncodedObject object : encoded.objects()) {
            staged.add(stage(object, window.k()));
        }
        pending.add(new WindowCommittable(encoded.manifest(), staged, window.checkpoint()));
        LOG.debug("staged window queue={} k={} objects={}", window.queue(), window.k(), staged.size());
    }

    private StagedObject stage(EncodedObject object, long k) throws IOException {
        RecoverableFsDataOutputStream out = staging.open(config.pathOf(object.key()));
        byte[] body = object.body();
        int half = body.length / 2;
        out.write(body, 0, half);
        config.crashIfArmed(CrashPoint.MID_STAGING, k);
        out.write(body, half, body.length - half);
        RecoverableWriter.CommitRecoverable handle = out.closeForCommit().getRecoverable();
        return new StagedObject(object.key(), handles.getVersion(), handles.serialize(handle));
    }

    @Override
    public void flush(boolean endOfInput) {
        // Every window is staged completely in write(); nothing is buffered here.
    }

    @Override
    public Collection<WindowCommittable> prepareCommit() {
        List<WindowCommittable> ready = List.copyOf(pending);
        pending.clear();
        long highest = ready.stream().mapToLong(WindowCommittable::k).max().orElse(-1);
        if (highest >= 0 && config.crashHook().isPresent()) {
            // Runs on the task thread after this checkpoint's snapshot, before its completion arrives.
            mailbox.execute(() -> config.crashIfArmed(CrashPoint.AFTER_PREPARE_COMMIT, highest),
                    "lake sink crash hook after prepareCommit");
        }
        return ready;
    }

    @Override
    public void close() {
        // Staged but uncommitted uploads stay as incomplete multipart uploads (see README-sink.md).
    }
}
