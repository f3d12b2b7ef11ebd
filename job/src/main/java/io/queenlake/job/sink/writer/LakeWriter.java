package io.queenlake.job.sink.writer;

import io.queenlake.format.manifest.Intent;
import io.queenlake.format.object.Format;
import io.queenlake.format.window.WindowEncoder;
import io.queenlake.format.window.WriterSettings;
import io.queenlake.job.sink.CrashPoint;
import io.queenlake.job.sink.LakeSinkConfig;
import io.queenlake.job.sink.committable.WindowCommittable;
import io.queenlake.job.window.ClosedWindow;
import java.io.IOException;
import java.util.Collection;
import java.util.List;
import org.apache.flink.api.common.operators.MailboxExecutor;
import org.apache.flink.api.connector.sink2.CommittingSinkWriter;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.RecoverableWriter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pre-commit half of the sink: encodes each closed window and stages every object under its
 * final key without making it visible, through the {@link RecoverableWriter} of the root's file
 * system (an uncompleted multipart upload on {@code s3://}, a hidden in-progress file on
 * {@code file://}); {@code prepareCommit} hands one {@link WindowCommittable} per window staged
 * since the last checkpoint.
 *
 * <p>Encoding and staging run on a few worker threads ({@link WindowStagings}): compressing a
 * window and uploading it are most of a window's cost, so the task thread goes on with the next
 * records (and the window operator with the next windows) meanwhile, and two windows can
 * compress on two cores. The payload bytes waiting to be staged are capped
 * ({@link LakeSinkConfig#stagingBytesInFlight()}). It keeps no Flink state: {@code prepareCommit}
 * waits until every window written before the barrier is fully staged, so a checkpoint never
 * holds a half-staged window, and a failure fails the task there (or at the next {@code write}).
 * A failure before the checkpoint completes rewinds the window operator, which fires the window
 * again, and the identical bytes are staged again. Never publishes anything: that is the
 * committer's job.
 */
public final class LakeWriter implements CommittingSinkWriter<ClosedWindow, WindowCommittable> {

    private static final Logger LOG = LoggerFactory.getLogger(LakeWriter.class);

    /**
     * Workers compress (CPU) and then wait on the network, so a few more than the cores keep both
     * busy; the staging cap, not the thread count, bounds the memory.
     */
    static final int WORKER_THREADS = 4;

    private final LakeSinkConfig config;
    private final MailboxExecutor mailbox;
    private final WindowStagings stagings;

    public LakeWriter(LakeSinkConfig config, MailboxExecutor mailbox, int subtask) throws IOException {
        this(config, mailbox, subtask, FileSystem.get(config.pathOf("").toUri()).createRecoverableWriter());
    }

    /** With a given staging writer: tests wrap the root's own one to order or fail uploads. */
    LakeWriter(LakeSinkConfig config, MailboxExecutor mailbox, int subtask, RecoverableWriter staging) {
        this.config = config;
        this.mailbox = mailbox;
        WindowEncoder encoder = new WindowEncoder(config.writerSettings(), config.prefix(), config.sinkName());
        this.stagings = new WindowStagings(encoder, new ObjectStager(config, staging), config.stagingBytesInFlight(),
                WORKER_THREADS, "lake-sink-" + config.sinkName() + "-" + subtask + "-stage");
    }

    @Override
    public void write(ClosedWindow window, Context context) throws IOException, InterruptedException {
        config.crashIfArmed(CrashPoint.AFTER_WINDOW_FIRES_BEFORE_STAGING, window.k());
        if (!window.window().tenant().equals(config.tenant())) {
            throw new IllegalArgumentException("window " + window.k() + " of queue '" + window.queue()
                    + "' belongs to tenant " + window.window().tenant() + " but this sink writes tenant "
                    + config.tenant() + ": run one sink per tenant.");
        }
        if (window.redo().isPresent()) {
            stagings.stage(window.window(), window.checkpoint(), redoEncoder(window.redo().get()));
        } else {
            stagings.stage(window.window(), window.checkpoint());
        }
        LOG.debug("handed window queue={} k={} to the workers", window.queue(), window.k());
    }

    /**
     * The encoder of a window that finishes an open intent: the intent's format, compression and
     * layout (this job's alignment and target), so its objects get the keys and bytes the intent's have.
     */
    private WindowEncoder redoEncoder(Intent intent) {
        WriterSettings own = config.writerSettings();
        WriterSettings recorded = new WriterSettings(Format.of(intent.format(), intent.compression()), intent.layout(),
                own.align(), own.targetBytes());
        return new WindowEncoder(recorded, config.prefix(), config.sinkName());
    }

    @Override
    public void flush(boolean endOfInput) throws IOException, InterruptedException {
        // Called before prepareCommit at every barrier: the stagings are awaited there.
    }

    @Override
    public Collection<WindowCommittable> prepareCommit() throws IOException, InterruptedException {
        List<WindowCommittable> ready = stagings.awaitAll();
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
        stagings.close();
    }
}
