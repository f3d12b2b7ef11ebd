package io.queenlake.source.reader;

import io.queenlake.broker.client.HttpQueenClient;
import io.queenlake.broker.client.QueenClient;
import io.queenlake.source.OpenWindows;
import io.queenlake.source.PointerAtStart;
import io.queenlake.source.QueenSourceConfig;
import io.queenlake.source.QueueEvent;
import io.queenlake.source.QueueFrontier;
import io.queenlake.source.QueueStart;
import io.queenlake.source.event.ListingRequest;
import io.queenlake.source.event.PassCompleted;
import io.queenlake.source.event.PassListing;
import io.queenlake.source.event.PassUpdate;
import io.queenlake.source.event.QueueProgress;
import io.queenlake.source.metrics.QueenSourceMetrics;
import io.queenlake.source.split.QueueSplit;
import io.queenlake.source.split.QueueSplitState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.connector.base.source.reader.SingleThreadMultiplexSourceReaderBase;
import org.apache.flink.core.io.InputStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * QueenSource's reader: one fetcher thread running a {@link QueenSplitReader} over this reader's
 * queue splits, a {@link QueenRecordEmitter}, and the broker-time frontiers ({@link
 * ReaderWatermarks}): a {@link QueueStart} when it takes a queue's split, before anything else of
 * the queue, and after records, passes and partition changes a {@link QueueFrontier} per queue
 * whose frontier rose and the Flink watermark (their minimum) on the main output.
 * Discovery news ({@link PassUpdate}, rebuilt into a {@link PassCompleted} by the reader's
 * {@link PassListing}) reaches the fetcher through a {@link PassExchange}.
 *
 * <p>At a checkpoint each queue split is made from its state and from the cut the windows
 * chained behind this reader give for the queue ({@link OpenWindows}): every partition is read
 * again from its oldest record still in an open window, so a checkpoint holds positions and
 * window numbers, never records.
 *
 * <p>The watermark strategy generates nothing ({@code ReaderEmittedWatermarks}), so the main
 * output's {@code emitWatermark} is the only watermark this source sends downstream.
 */
@Internal
public final class QueenSourceReader
        extends SingleThreadMultiplexSourceReaderBase<ReadItem, QueueEvent, QueueSplit, QueueSplitState> {

    private static final Logger LOG = LoggerFactory.getLogger(QueenSourceReader.class);

    private final ReaderWatermarks watermarks;
    /** The listing the enumerator's pass updates describe, rebuilt in full for each pass. */
    private final PassListing listing = new PassListing();
    /** Stand-in for a reader with no windows behind it: always ready. */
    private static final OpenWindows NO_WINDOWS = new OpenWindows() {
        @Override
        public Optional<Snapshot> snapshot(String queue) {
            return Optional.empty();
        }

        @Override
        public boolean overBudget() {
            return false;
        }
    };
    private OpenWindows windows;
    private final PassExchange exchange;
    /** Completed when a frontier moved while the reader had nothing to poll, so it goes out. */
    private CompletableFuture<Void> frontierMoved = new CompletableFuture<>();
    /** Checkpoints whose progress waits for completion; an older one is dropped (a later one supersedes it). */
    static final int MAX_PENDING_PROGRESS = 16;
    /** Per checkpoint not yet complete, how far it closed each queue (sent when it completes). */
    private final TreeMap<Long, Map<String, QueueProgress.Closed>> progressAt = new TreeMap<>();
    private Map<String, QueueProgress.Closed> snapshotting;
    /** Queues whose split arrived and whose QueueStart has not gone out: it precedes every other event of the queue. */
    private final List<QueueStart> starts = new ArrayList<>();
    /** Reads the pointers of the queues whose starts go out together, in batches. */
    private final StartPointers startPointers;
    /**
     * Queues whose split arrived but no pass has listed yet: their QueueStart waits for one, so the
     * windows read the commit pointer as it is when the queue is read at all. A restored split the
     * enumerator holds back (its lake is ahead of its pointer) starts only once the pointer is
     * repaired, from the repaired pointer when that is ahead of the split's cut.
     */
    private final Map<String, QueueStart> unlisted = new LinkedHashMap<>();

    private QueenSourceReader(QueenClient client, QueenSourceConfig config, SourceReaderContext context,
            QueenSourceMetrics metrics, PassExchange exchange, ReaderWatermarks watermarks, QueenRecordEmitter emitter) {
        super(() -> new QueenSplitReader(client, config.fetchConcurrency(), exchange, metrics, config.maxWindowMs()),
                emitter, context.getConfiguration(), context);
        this.watermarks = watermarks;
        this.exchange = exchange;
        this.startPointers = new StartPointers(client, config.sink());
    }

    /** Builds a reader over its own HTTP client to the configured broker node. */
    public static QueenSourceReader create(QueenSourceConfig config, SourceReaderContext context) {
        QueenClient client = HttpQueenClient.builder()
                .baseUrl(config.brokerUrl())
                .token(config.token())
                .tenant(config.tenant())
                .requestTimeout(Duration.ofMillis(config.requestTimeoutMs()))
                .build();
        return create(client, config, context);
    }

    /** Builds a reader over a given client (tests count its calls). */
    static QueenSourceReader create(QueenClient client, QueenSourceConfig config, SourceReaderContext context) {
        QueenSourceMetrics metrics = new QueenSourceMetrics(context.metricGroup());
        PassExchange exchange = new PassExchange();
        ReaderWatermarks watermarks = new ReaderWatermarks(config.safeGuardMicros(), exchange, metrics);
        return new QueenSourceReader(client, config, context, metrics, exchange, watermarks,
                new QueenRecordEmitter(watermarks, metrics));
    }

    @Override
    public InputStatus pollNext(ReaderOutput<QueueEvent> output) throws Exception {
        if (!starts.isEmpty()) {
            Map<String, PointerAtStart> read = startPointers.read(starts.stream().map(QueueStart::queue).toList());
            for (QueueStart start : starts) {
                PointerAtStart pointer = read.get(start.queue());
                output.collect(pointer == null ? start : start.withPointer(pointer));
                watermarks.started(start.queue());
            }
            starts.clear();
        }
        if (!windows().ready().isDone()) {
            return InputStatus.NOTHING_AVAILABLE; // the sink behind is full: isAvailable waits for room
        }
        InputStatus status = super.pollNext(output);
        ReaderWatermarks.Advance advance = watermarks.advance(status == InputStatus.MORE_AVAILABLE);
        for (QueueFrontier frontier : advance.frontiers()) {
            output.collect(frontier);
        }
        if (advance.watermarkMillis().isPresent()) {
            output.emitWatermark(new Watermark(advance.watermarkMillis().getAsLong()));
        }
        if (!advance.frontiers().isEmpty()) {
            exchange.publishOverBudget(OpenWindows.ofThisTask().map(OpenWindows::overBudget).orElse(false));
        }
        return status;
    }

    @Override
    public CompletableFuture<Void> isAvailable() {
        exchange.publishOverBudget(OpenWindows.ofThisTask().map(OpenWindows::overBudget).orElse(false));
        CompletableFuture<Void> room = windows().ready();
        if (!room.isDone()) {
            return room;
        }
        if (watermarks.pending() || !starts.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        if (frontierMoved.isDone()) {
            frontierMoved = new CompletableFuture<>();
        }
        return CompletableFuture.anyOf(super.isAvailable(), frontierMoved).thenApply(ignored -> null);
    }

    @Override
    public void handleSourceEvents(SourceEvent event) {
        if (event instanceof PassUpdate update) {
            Optional<PassCompleted> pass = listing.apply(update);
            if (pass.isEmpty()) {
                LOG.warn("pass update {} is based on update {}, but this reader applied {}: asking for the whole"
                        + " listing", update.sequence(), update.basedOn(), listing.applied());
                context.sendSourceEventToCoordinator(new ListingRequest(listing.applied()));
                return;
            }
            onPass(pass.get());
        } else {
            LOG.warn("QueenSource reader ignores an unknown source event {}", event);
        }
    }

    /** The windows chained behind, kept once found (they register when they open, before any poll). */
    private OpenWindows windows() {
        if (windows == null) {
            Optional<OpenWindows> found = OpenWindows.ofThisTask();
            if (found.isEmpty()) {
                return NO_WINDOWS;
            }
            windows = found.get();
        }
        return windows;
    }

    private void onPass(PassCompleted pass) {
        startListed(pass.queues().keySet());
        watermarks.onPass(pass);
        exchange.publishPass(pass);
        frontierMoved.complete(null);
    }

    /** Lets the QueueStart of every waiting queue that {@code listed} names go out. */
    private void startListed(Set<String> listed) {
        for (Iterator<Map.Entry<String, QueueStart>> it = unlisted.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<String, QueueStart> waiting = it.next();
            if (listed.contains(waiting.getKey())) {
                starts.add(waiting.getValue());
                it.remove();
            }
        }
    }

    @Override
    protected QueueSplitState initializedState(QueueSplit split) {
        watermarks.addQueue(split.queue(), split.partitions());
        unlisted.put(split.queue(), new QueueStart(split.queue(), split.cut()));
        PassExchange.Pass latest = exchange.latestPass();
        if (latest != null) {
            startListed(latest.queues().keySet());
        }
        return new QueueSplitState(split);
    }

    @Override
    public List<QueueSplit> snapshotState(long checkpointId) {
        snapshotting = new HashMap<>();
        try {
            List<QueueSplit> splits = super.snapshotState(checkpointId);
            progressAt.put(checkpointId, snapshotting);
            while (progressAt.size() > MAX_PENDING_PROGRESS) {
                progressAt.pollFirstEntry(); // checkpoints that never completed nor aborted here
            }
            return splits;
        } finally {
            snapshotting = null;
        }
    }

    @Override
    protected QueueSplit toSplitType(String splitId, QueueSplitState state) {
        Optional<OpenWindows.Snapshot> windows = OpenWindows.ofThisTask().flatMap(w -> w.snapshot(state.queue()));
        if (snapshotting != null) {
            windows.flatMap(w -> closedThrough(state.queue(), w)).ifPresent(c -> snapshotting.put(state.queue(), c));
        }
        return state.toSplit(windows);
    }

    /**
     * How far the windows' cut closed the queue: with nothing open every record at or below the
     * frontier they were given is in a closed window, else every record below the last closed
     * window's {@code tEnd} is.
     */
    private Optional<QueueProgress.Closed> closedThrough(String queue, OpenWindows.Snapshot windows) {
        long through = windows.cut().lastEnd();
        if (windows.firstOpenOffsets().isEmpty() && watermarks.frontierMicros(queue).isPresent()) {
            through = Math.max(through, watermarks.frontierMicros(queue).getAsLong() + 1);
        }
        return through == Long.MIN_VALUE ? Optional.empty() : Optional.of(new QueueProgress.Closed(windows.cut().k(), through));
    }

    @Override
    public void notifyCheckpointAborted(long checkpointId) throws Exception {
        super.notifyCheckpointAborted(checkpointId);
        progressAt.remove(checkpointId);
    }

    /** The checkpoint holds the windows' cuts it took: the enumerator carries that progress in the leases. */
    @Override
    public void notifyCheckpointComplete(long checkpointId) throws Exception {
        super.notifyCheckpointComplete(checkpointId);
        Map<String, QueueProgress.Closed> progress = progressAt.remove(checkpointId);
        progressAt.headMap(checkpointId).clear();
        if (progress != null && !progress.isEmpty()) {
            context.sendSourceEventToCoordinator(new QueueProgress(progress));
        }
    }

    @Override
    protected void onSplitFinished(Map<String, QueueSplitState> finished) {
        // Queue splits never finish: a queue that is gone may be created again.
        frontierMoved.complete(null);
    }
}
