package io.queenlake.job.window;

import io.queenlake.broker.client.HttpQueenClient;
import io.queenlake.broker.client.RetryPolicy;
import io.queenlake.format.jsonl.PayloadText;
import io.queenlake.format.manifest.CheckpointDoc;
import io.queenlake.format.manifest.Committed;
import io.queenlake.format.manifest.Intent;
import io.queenlake.format.model.WindowBounds;
import io.queenlake.format.window.WindowInput;
import io.queenlake.job.restore.PointerRestore;
import io.queenlake.job.serde.QueueRecordSerializer;
import io.queenlake.job.serde.ResumePositionSerializer;
import io.queenlake.source.QueueRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeutils.base.LongSerializer;
import org.apache.flink.api.common.typeutils.base.array.BytePrimitiveArraySerializer;
import org.apache.flink.api.common.typeutils.base.StringSerializer;
import org.apache.flink.runtime.state.VoidNamespace;
import org.apache.flink.runtime.state.VoidNamespaceSerializer;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.InternalTimer;
import org.apache.flink.streaming.api.operators.InternalTimerService;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.operators.Triggerable;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Per queue (the key), buffers records into epoch-aligned windows of the broker clock and emits
 * each window, size-cut and numbered, when a real watermark passes its last millisecond
 * (docs/ARCHITECTURE.md "Windows", "Restore").
 *
 * <p>It owns, in keyed state: the records of each open window (a list per window start, so heap
 * and RocksDB both append cheaply), one event-time timer per open window, the last window number
 * {@code k} and where that window ended (the next one starts there: windows tile), the commit
 * pointer's {@code tEnd} below which records are dropped, the resume position
 * of every partition, and the buffered payload bytes. Not Flink's WindowOperator, because:
 *
 * <ul>
 *   <li>Flink's final watermark ({@code Long.MAX_VALUE}, a drain or the end of a bounded input) is
 *       forwarded but never closes a window: it would close it past the broker's clock;
 *   <li>a record at or below the watermark fails the job instead of being dropped;
 *   <li>numbering continues from the KV commit pointer when Flink has no state for the queue;
 *   <li>an open intent found then (window {@code committed.k + 1}, written by a committer that
 *       may have published its objects before it crashed) is finished first: its records, those
 *       stamped in exactly the intent's {@code [tStart, tEnd)}, close into window {@code intent.k}
 *       (never size-cut) when the watermark passes its {@code tEnd}, carrying the intent so the sink
 *       encodes it with the intent's format and layout; later records go to this job's own grid and
 *       tile on from the intent's {@code tEnd}. See {@link #startNumbering} for why this is exact.
 * </ul>
 *
 * <p>It never encodes, writes or commits: the sink does.
 */
public final class LakeWindowOperator extends AbstractStreamOperator<ClosedWindow>
        implements OneInputStreamOperator<QueueRecord, ClosedWindow>, Triggerable<String, Long> {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(LakeWindowOperator.class);

    static final String TIMERS = "lake-windows";
    /** The timer namespace of the redo window; no grid cell starts there. */
    static final long REDO = Long.MIN_VALUE;

    private final WindowSettings settings;

    private transient ListStateDescriptor<QueueRecord> recordsDescriptor;
    private transient ValueStateDescriptor<Long> bufferedDescriptor;
    private transient InternalTimerService<Long> timers;
    private transient ValueState<Long> lastK;
    private transient ValueState<Long> pointerEnd;
    private transient ValueState<Long> lastEnd;
    private transient ValueState<Long> buffered;
    private transient MapState<String, CheckpointDoc.Position> positions;
    private transient ValueState<byte[]> redoIntent;
    private transient ListStateDescriptor<QueueRecord> redoDescriptor;
    private transient PointerRestore pointers;
    private transient WindowMetrics metrics;

    public LakeWindowOperator(WindowSettings settings) {
        this.settings = Objects.requireNonNull(settings, "settings");
    }

    @Override
    public void open() throws Exception {
        super.open();
        recordsDescriptor = new ListStateDescriptor<>("window-records", QueueRecordSerializer.INSTANCE);
        bufferedDescriptor = new ValueStateDescriptor<>("buffered-bytes", LongSerializer.INSTANCE);
        lastK = getPartitionedState(new ValueStateDescriptor<>("last-k", LongSerializer.INSTANCE));
        pointerEnd = getPartitionedState(new ValueStateDescriptor<>("pointer-tend", LongSerializer.INSTANCE));
        lastEnd = getPartitionedState(new ValueStateDescriptor<>("last-tend", LongSerializer.INSTANCE));
        buffered = getPartitionedState(bufferedDescriptor);
        positions = getPartitionedState(new MapStateDescriptor<>(
                "resume-positions", StringSerializer.INSTANCE, ResumePositionSerializer.INSTANCE));
        redoIntent = getPartitionedState(new ValueStateDescriptor<>("redo-intent", BytePrimitiveArraySerializer.INSTANCE));
        redoDescriptor = new ListStateDescriptor<>("redo-records", QueueRecordSerializer.INSTANCE);
        timers = getInternalTimerService(TIMERS, LongSerializer.INSTANCE, this);
        metrics = new WindowMetrics(getMetricGroup());
        // After a restore the gauges start from the state, not from zero.
        getKeyedStateBackend().<VoidNamespace, ValueState<Long>, Long>applyToAllKeys(
                VoidNamespace.INSTANCE, VoidNamespaceSerializer.INSTANCE, bufferedDescriptor,
                (queue, state) -> metrics.of((String) queue).bufferedBytes(orZero(state.value())));
        pointers = new PointerRestore(
                HttpQueenClient.builder()
                        .baseUrl(settings.brokerUrl())
                        .token(settings.token())
                        .tenant(settings.tenant())
                        .requestTimeout(settings.requestTimeout())
                        .build(),
                settings.sink(),
                RetryPolicy.standard());
    }

    @Override
    public void processElement(StreamRecord<QueueRecord> element) throws Exception {
        QueueRecord record = element.getValue();
        String queue = (String) getCurrentKey();
        WindowMetrics.Queue queueMetrics = metrics.of(queue);
        long ts = record.record().tsMicros();
        if (ts < startNumbering(queue)) {
            queueMetrics.recordBelowPointer();
            return;
        }
        long watermark = timers.currentWatermark();
        if (WindowRules.isLate(ts, watermark)) {
            queueMetrics.lateRecord();
            LOG.error("late record: queue={} partition={} offset={} ts={} watermark={}",
                    queue, record.record().partition(), record.record().offset(), ts, watermark);
            throw new LateRecordException(
                    queue, record.record().partition(), record.record().offset(), ts, watermark);
        }
        Optional<Intent> redo = redo();
        if (redo.isPresent() && ts < redo.get().tEnd()) {
            if (ts < redo.get().tStart()) {
                throw new IllegalStateException("queue '" + queue + "': record " + record.record().partition() + "@"
                        + record.record().offset() + " is stamped " + ts + ", between the commit pointer's tEnd and"
                        + " the start " + redo.get().tStart() + " of the open intent k=" + redo.get().k()
                        + ", where the window that wrote the intent had no record: the log or the pointer changed");
            }
            redoRecords().add(record);
        } else {
            WindowBounds window = WindowRules.bounds(ts, settings.maxWindowMs(), settings.align());
            windowRecords(window.tStart()).add(record);
            timers.registerEventTimeTimer(window.tStart(), WindowRules.lastMillis(window));
        }
        long bytes = orZero(buffered.value()) + record.record().payload().length;
        buffered.update(bytes);
        queueMetrics.bufferedBytes(bytes);
    }

    /**
     * A real watermark advances the timers; Flink's final one is only forwarded, so open windows
     * stay in state (and in the savepoint a drain takes) with their timers.
     */
    @Override
    public void processWatermark(Watermark mark) throws Exception {
        if (mark.getTimestamp() == Long.MAX_VALUE) {
            output.emitWatermark(mark);
            return;
        }
        super.processWatermark(mark);
    }

    @Override
    public void onEventTime(InternalTimer<String, Long> timer) throws Exception {
        String queue = timer.getKey();
        long gridStart = timer.getNamespace();
        long floor = startNumbering(queue);
        if (gridStart == REDO) {
            finishIntent(queue, timer.getTimestamp());
            return;
        }
        List<QueueRecord> records = takeRecords(queue, windowRecords(gridStart), floor);
        if (records.isEmpty()) {
            return;
        }
        WindowBounds grid = WindowRules.startingAt(gridStart, settings.maxWindowMs());
        long k = lastK.value();
        emit(WindowSlicer.slice(settings.tenant(), queue, tStart(k, grid, floor, records), grid.tEnd(), records, k + 1,
                settings.targetBytes()), timer.getTimestamp(), Optional.empty());
    }

    /**
     * Closes the open intent's window: {@code k}, bounds and format as the intent records them,
     * whatever this job's settings, never size-cut (the intent is one window).
     */
    private void finishIntent(String queue, long timestamp) throws Exception {
        Intent intent = redo().orElseThrow();
        List<QueueRecord> records = takeRecords(queue, redoRecords(), intent.tStart());
        redoIntent.clear();
        if (records.isEmpty()) {
            LOG.error("queue '{}': the open intent k={} [{}, {}) has no record left in the log (retention?): its"
                    + " objects, if published, stay outside any manifest; window k={} is cut by this job's settings",
                    queue, intent.k(), intent.tStart(), intent.tEnd(), intent.k());
            return;
        }
        LOG.info("queue '{}': finishing the open intent k={} [{}, {}) {} {} with {} records", queue, intent.k(),
                intent.tStart(), intent.tEnd(), intent.format(), intent.compression(), records.size());
        emit(WindowSlicer.slice(settings.tenant(), queue, intent.tStart(), intent.tEnd(), records, intent.k(),
                Long.MAX_VALUE), timestamp, Optional.of(intent));
    }

    private void emit(List<WindowInput> windows, long timestamp, Optional<Intent> redo) throws Exception {
        for (WindowInput window : windows) {
            positions.putAll(ResumePositions.after(window.records()));
            Optional<CheckpointDoc> checkpoint = settings.checkpointsAt(window.k())
                    ? Optional.of(new CheckpointDoc(window.k(), window.tEnd(), currentPositions()))
                    : Optional.empty();
            output.collect(new StreamRecord<>(new ClosedWindow(window, checkpoint, redo), timestamp));
            LOG.debug("window closed: queue={} k={} records={} tStart={} tEnd={}",
                    window.queue(), window.k(), window.records().size(), window.tStart(), window.tEnd());
        }
        lastK.update(windows.get(windows.size() - 1).k());
        lastEnd.update(windows.get(windows.size() - 1).tEnd());
    }

    /** Empties {@code state} and returns its records stamped at or above {@code floor}, keeping the byte count. */
    private List<QueueRecord> takeRecords(String queue, ListState<QueueRecord> state, long floor) throws Exception {
        List<QueueRecord> records = new ArrayList<>();
        long payloadBytes = 0;
        int belowPointer = 0;
        for (QueueRecord r : state.get()) {
            payloadBytes += r.record().payload().length;
            if (r.record().tsMicros() < floor) {
                belowPointer++;
            } else {
                records.add(r);
            }
        }
        state.clear();
        WindowMetrics.Queue queueMetrics = metrics.of(queue);
        countRewrittenPayloads(queue, records, queueMetrics);
        long bytes = Math.max(0, orZero(buffered.value()) - payloadBytes);
        if (bytes == 0) {
            buffered.clear();
        } else {
            buffered.update(bytes);
        }
        queueMetrics.bufferedBytes(bytes);
        for (int i = 0; i < belowPointer; i++) {
            queueMetrics.recordBelowPointer();
        }
        return records;
    }

    /**
     * Every payload the lake will write as something other than its bytes (not one JSON text in
     * well-formed UTF-8, see {@link PayloadText}) is counted and logged once, when its window
     * closes: a real broker never sends one, so each is a broker or producer bug worth a line.
     */
    private static void countRewrittenPayloads(String queue, List<QueueRecord> records, WindowMetrics.Queue metrics) {
        for (QueueRecord r : records) {
            if (PayloadText.isRewritten(r.record())) {
                metrics.payloadRewritten();
                LOG.warn("payload rewritten: queue={} partition={} offset={}: {}; the lake holds it as a JSON string"
                        + " of its lossy UTF-8", queue, r.record().partition(), r.record().offset(),
                        PayloadText.whyRewritten(r.record().payload()));
            }
        }
    }

    /** The start of the window made of a closed grid window's records: where the queue's last one ended. */
    private long tStart(long k, WindowBounds grid, long floor, List<QueueRecord> records) throws Exception {
        Long previous = lastEnd.value();
        if (previous == null && k > 0) {
            // State written before windows tiled knows k but not where window k ended.
            return Math.max(grid.tStart(), floor);
        }
        long firstTs = Long.MAX_VALUE;
        for (QueueRecord r : records) {
            firstTs = Math.min(firstTs, r.record().tsMicros());
        }
        return WindowRules.tiledStart(previous == null ? OptionalLong.empty() : OptionalLong.of(previous), firstTs,
                settings.align());
    }

    @Override
    public void onProcessingTime(InternalTimer<String, Long> timer) {
        // Windows close on the broker clock only; no processing-time timer is ever registered.
    }

    /**
     * Makes sure the current queue has a window number, reading the commit pointer and the intent
     * when Flink has none (a fresh start, or a new queue), and returns the stamp below which records
     * are dropped. An open intent (window {@code committed.k + 1}) becomes the first window to close.
     * That is exact: the source reads the queue from the pointer's {@code tEnd} on, so every record
     * of {@code [intent.tStart, intent.tEnd)} reaches the redo window (none is in a committed window,
     * which all end at or below the pointer's {@code tEnd <= intent.tStart}), and none goes twice (the
     * next window starts at {@code intent.tEnd}); its objects get the intent's keys, overwriting
     * whatever the crashed committer published under them, and the committer commits them as
     * window {@code intent.k} with intent, manifest and pointer as usual. Done before any window of
     * the queue, so no object of this job's own grid is published before the intent is finished.
     */
    private long startNumbering(String queue) throws Exception {
        if (lastK.value() == null) {
            PointerRestore.Start start = pointers.start(queue);
            Optional<Committed> committed = start.committed();
            lastK.update(committed.map(Committed::k).orElse(0L));
            if (committed.isPresent()) {
                pointerEnd.update(committed.get().tEnd());
                lastEnd.update(committed.get().tEnd());
                LOG.info("queue '{}' continues from the commit pointer: next window k={}, records below tEnd={} dropped",
                        queue, committed.get().k() + 1, committed.get().tEnd());
            }
            if (start.redo().isPresent()) {
                Intent intent = start.redo().get();
                redoIntent.update(intent.toJson());
                timers.registerEventTimeTimer(REDO, WindowRules.lastMillis(new WindowBounds(intent.tStart(), intent.tEnd())));
                LOG.info("queue '{}' has an open intent: window k={} [{}, {}) is closed first, as {} {} {}", queue,
                        intent.k(), intent.tStart(), intent.tEnd(), intent.format(), intent.compression(),
                        intent.layout().wireName());
            }
        }
        Long end = pointerEnd.value();
        return end == null ? Long.MIN_VALUE : end;
    }

    /** The current queue's open intent, while its window has not closed. */
    private Optional<Intent> redo() throws Exception {
        byte[] json = redoIntent.value();
        return json == null ? Optional.empty() : Optional.of(Intent.fromJson(json));
    }

    private ListState<QueueRecord> redoRecords() throws Exception {
        return getPartitionedState(REDO, LongSerializer.INSTANCE, redoDescriptor);
    }

    private ListState<QueueRecord> windowRecords(long gridStart) throws Exception {
        return getPartitionedState(gridStart, LongSerializer.INSTANCE, recordsDescriptor);
    }

    private List<CheckpointDoc.Position> currentPositions() throws Exception {
        List<CheckpointDoc.Position> all = new ArrayList<>();
        for (Map.Entry<String, CheckpointDoc.Position> e : positions.entries()) {
            all.add(e.getValue());
        }
        return all;
    }

    private static long orZero(Long value) {
        return value == null ? 0 : value;
    }

    /** One queue's metrics, for tests. */
    WindowMetrics.Queue metricsOf(String queue) {
        return metrics.of(queue);
    }

    /** The settings this operator runs with, for the pipeline's description. */
    public WindowSettings settings() {
        return settings;
    }
}
