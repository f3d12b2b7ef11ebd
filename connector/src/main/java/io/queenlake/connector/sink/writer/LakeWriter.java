package io.queenlake.connector.sink.writer;

import io.queenlake.format.manifest.Intent;
import io.queenlake.format.object.Format;
import io.queenlake.format.window.WindowEncoder;
import io.queenlake.format.window.WriterSettings;
import io.queenlake.connector.sink.CrashPoint;
import io.queenlake.connector.sink.LakeSinkConfig;
import io.queenlake.connector.sink.S3Outages;
import io.queenlake.connector.sink.committable.WindowCommittable;
import io.queenlake.connector.window.ClosedWindow;
import io.queenlake.connector.window.WindowHandover;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.Collection;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.operators.MailboxExecutor;
import org.apache.flink.api.connector.sink2.CommittingSinkWriter;
import org.apache.flink.api.connector.sink2.StatefulSinkWriter;
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
 * ({@link LakeSinkConfig#stagingBytesInFlight()}): alone, the writer blocks above the cap; chained
 * behind the windows it takes every window and, above the cap, the source stops emitting until
 * there is room, so the read slows by backpressure and checkpoints go on. Chained behind the broker-clock windows (the
 * lake's graph), {@code prepareCommit} waits for nothing: it hands the windows of each queue staged
 * so far ({@link WindowHandover} tells the windows, whose checkpointed cut then stays before the
 * first window not handed, so a restore reads that one again from the broker) and the writer keeps
 * no state. Alone (its tests), {@code prepareCommit} waits for the first upload
 * attempt of every window written before the barrier and hands the committables of those staged;
 * a window whose upload is being retried (and every later window of its queue) is kept in the
 * writer's Flink state instead and handed at a later checkpoint, so one queue's failing uploads
 * never hold back another's commits ({@link WindowStagings}). A staging that fails for good fails
 * the task, which restarts from the last checkpoint: the window operator fires the windows again,
 * the writer's state gives back the carried ones, and the identical bytes are staged again. Never
 * publishes anything: that is the committer's job.
 */
@Internal
public final class LakeWriter implements CommittingSinkWriter<ClosedWindow, WindowCommittable>,
        StatefulSinkWriter<ClosedWindow, ClosedWindow> {

    private static final Logger LOG = LoggerFactory.getLogger(LakeWriter.class);


    private final LakeSinkConfig config;
    private final MailboxExecutor mailbox;
    private final WindowStagings stagings;
    private final WindowHandover handover;
    private boolean endOfInput;

    public LakeWriter(LakeSinkConfig config, MailboxExecutor mailbox, int subtask) throws IOException {
        this(config, mailbox, subtask, List.of());
    }

    /** {@code carried}: the windows of the writer's restored state, staged again first. */
    public LakeWriter(LakeSinkConfig config, MailboxExecutor mailbox, int subtask, Collection<ClosedWindow> carried)
            throws IOException {
        this(config, mailbox, subtask, FileSystem.get(config.pathOf("").toUri()).createRecoverableWriter(), carried);
    }

    LakeWriter(LakeSinkConfig config, MailboxExecutor mailbox, int subtask, RecoverableWriter staging)
            throws IOException {
        this(config, mailbox, subtask, staging, List.of());
    }

    /**
     * Workers compress (CPU), then wait on the bucket for three requests a window (create, part,
     * complete: 20-50 ms each on a real S3): 16 stage about 100-250 windows a second, the burst of
     * thousands of queues on one grid boundary within a minute, while compression keeps every core
     * busy. More only crowd the cores: with 64 a subtask (and the embedded bucket at 256 threads) two
     * cores committed 56 windows a second of 1,500 queues against 79 with 16, each window staged 2.9
     * times after its calls timed out. The staging cap, not the thread count, bounds the memory.
     */
    static final int WORKER_THREADS = 16;

    /** With a given staging writer: tests wrap the root's own one to order or fail uploads. */
    LakeWriter(LakeSinkConfig config, MailboxExecutor mailbox, int subtask, RecoverableWriter staging,
            Collection<ClosedWindow> carried) throws IOException {
        this.config = config;
        this.mailbox = mailbox;
        this.handover = WindowHandover.registerForThisTask();
        WindowEncoder encoder = new WindowEncoder(config.writerSettings(), config.prefix(), config.sinkName());
        this.stagings = new WindowStagings(window -> window.redo().map(this::redoEncoder).orElse(encoder),
                new ObjectStager(config, staging), config.stagingBytesInFlight(),
                config.stagingRetryFor(), S3Outages.of(config), WORKER_THREADS,
                "lake-sink-" + config.sinkName() + "-" + subtask + "-stage");
        handover.stagingRoomFrom(stagings::room);
        try {
            for (ClosedWindow window : carried) {
                stagings.stage(window);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while staging the restored windows again");
        }
        if (!carried.isEmpty()) {
            LOG.info("staging again {} window(s) carried in the writer's state", carried.size());
        }
    }

    @Override
    public void write(ClosedWindow window, Context context) throws IOException, InterruptedException {
        config.crashIfArmed(CrashPoint.AFTER_WINDOW_FIRES_BEFORE_STAGING, window.k());
        if (!window.window().tenant().equals(config.tenant())) {
            throw new IllegalArgumentException("window " + window.k() + " of queue '" + window.queue()
                    + "' belongs to tenant " + window.window().tenant() + " but this sink writes tenant "
                    + config.tenant() + ": run one sink per tenant.");
        }
        if (handover.observed()) {
            // Chained behind the windows: never stop them in the middle of a close; past the cap the
            // reader stops emitting instead (OpenWindows.ready), and the task thread stays free.
            stagings.take(window);
        } else {
            stagings.stage(window);
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
        // Called before prepareCommit at every barrier: the stagings are awaited there, all of them
        // at the end of the input, when no later checkpoint would hand a carried window on.
        this.endOfInput |= endOfInput;
    }

    @Override
    public Collection<WindowCommittable> prepareCommit() throws IOException, InterruptedException {
        // With the windows chained before it, a window not staged yet is read again from the broker if
        // this checkpoint is restored (its cut stays before it): nothing to wait for, nothing to keep.
        List<WindowCommittable> ready = handover.observed() && !endOfInput
                ? stagings.takeStaged()
                : stagings.awaitAll(endOfInput);
        ready.forEach(window -> handover.handedOn(window.queue(), window.k()));
        long highest = ready.stream().mapToLong(WindowCommittable::k).max().orElse(-1);
        if (highest >= 0 && config.crashHook().isPresent()) {
            // Runs on the task thread after this checkpoint's snapshot, before its completion arrives.
            mailbox.execute(() -> config.crashIfArmed(CrashPoint.AFTER_PREPARE_COMMIT, highest),
                    "lake sink crash hook after prepareCommit");
        }
        return ready;
    }

    /** The windows handed over and not yet handed on (their uploads still retrying, or behind such a window). */
    @Override
    public List<ClosedWindow> snapshotState(long checkpointId) {
        return handover.observed() ? List.of() : stagings.carried();
    }

    @Override
    public void close() {
        // Staged but uncommitted uploads stay as incomplete multipart uploads (see README-sink.md).
        WindowHandover.unregister(handover);
        stagings.close();
    }
}
