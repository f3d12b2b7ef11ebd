package io.queenlake.job.window;

import io.queenlake.format.jsonl.PayloadText;
import io.queenlake.format.manifest.CheckpointDoc;
import io.queenlake.format.manifest.Intent;
import io.queenlake.format.manifest.ResumePositions;
import io.queenlake.format.model.LogRecord;
import io.queenlake.format.model.LostRange;
import io.queenlake.format.model.WindowBounds;
import io.queenlake.format.order.Utf8ByteOrder;
import io.queenlake.format.run.OrderedRuns;
import io.queenlake.format.run.RecordRun;
import io.queenlake.format.run.RunSlice;
import io.queenlake.format.window.WindowRuns;
import io.queenlake.source.OpenWindows;
import io.queenlake.source.QueueRecord;
import io.queenlake.source.split.PartitionSplit;
import io.queenlake.source.split.QueueCut;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One queue's windows, in memory only (docs/ARCHITECTURE.md "Windows"): the open grid cells and the
 * redo window with their records, the numbering ({@code k}, where window {@code k} ended, the
 * pointer's {@code tEnd}, the positions after the closed windows) and the queue's frontier. A
 * window closes on this queue's frontier only; a restore reads the open records again from the
 * broker, so nothing here is Flink state. Used from the task thread only.
 *
 * <p>The per-record path ({@link #add}) is a few comparisons, the record's encoding appended to its
 * partition incarnation's run ({@link OpenRuns}) and counters: the lake's bytes are made as records
 * arrive, and closing a window cuts and hands on runs. A checkpoint reads each run's first record.
 */
final class QueueWindows {

    private static final Logger LOG = LoggerFactory.getLogger(LakeWindowOperator.class);

    private static final Comparator<LostRange> LOST_ORDER = Comparator.comparing(LostRange::partition, Utf8ByteOrder.INSTANCE)
            .thenComparingLong(LostRange::from)
            .thenComparingLong(LostRange::to);
    private static final Comparator<CheckpointDoc.Position> POSITION_ORDER =
            Comparator.comparing(CheckpointDoc.Position::partition, Utf8ByteOrder.INSTANCE);

    /** One open grid cell: its records, kept as runs. */
    private static final class Cell {
        final long tStart;
        final long tEnd;
        OpenRuns records;
        long payloadBytes;
        long minTs = Long.MAX_VALUE;

        Cell(WindowBounds bounds, OpenRuns records) {
            this.tStart = bounds.tStart();
            this.tEnd = bounds.tEnd();
            this.records = records;
        }

        /** Keeps the record; returns the bytes kept for it. */
        long add(QueueRecord r, long ts, long bytes) {
            payloadBytes += bytes;
            if (ts < minTs) {
                minTs = ts;
            }
            return records.add(r.record(), r.lostBefore());
        }
    }

    /**
     * A closed window the writer has not handed on yet, and the numbering before it: while one is
     * here, the cut stays before it and its records count as open (a restore reads them again).
     */
    private record Unhanded(long k, long prevEnd, List<CheckpointDoc.Position> prevPositions,
            Map<String, Map<String, OldestOpen.Oldest>> oldest) {}

    private final String queue;
    private final WindowSettings settings;
    private final WindowFormats formats;
    private final Optional<WindowHandover> handover;
    private final ArrayDeque<Unhanded> unhanded = new ArrayDeque<>();
    private final WindowMetrics.Queue metrics;
    private final OpenWindowBudget.Account budget;

    private long k;
    private long lastEnd;
    private final long pointerEnd;
    private final Map<String, CheckpointDoc.Position> closedPositions = new HashMap<>();

    private Intent redo;
    private OpenRuns redoRecords;
    private long redoBytes;

    private final TreeMap<Long, Cell> cells = new TreeMap<>();
    /** The cell the last record went to: most records go where the one before went. */
    private Cell recent;

    private long frontier;
    private long closedThroughAtSnapshot = Long.MIN_VALUE;
    private long payloadBytes;
    private long keptBytes;
    private long openRecords;

    QueueWindows(String queue, StartPoint start, WindowSettings settings, WindowFormats formats,
            WindowMetrics.Queue metrics, OpenWindowBudget.Account budget) {
        this(queue, start, settings, formats, metrics, budget, Optional.empty());
    }

    /** {@code handover}: the writer chained behind, which says which closed windows it handed on. */
    QueueWindows(String queue, StartPoint start, WindowSettings settings, WindowFormats formats,
            WindowMetrics.Queue metrics, OpenWindowBudget.Account budget, Optional<WindowHandover> handover) {
        this.queue = queue;
        this.settings = settings;
        this.formats = formats;
        this.handover = handover;
        this.metrics = metrics;
        this.budget = budget;
        this.k = start.k();
        this.lastEnd = start.lastEnd();
        this.pointerEnd = start.pointerEnd();
        for (CheckpointDoc.Position p : start.closedPositions()) {
            closedPositions.put(p.partition(), p);
        }
        // Window k closed because the frontier reached its last microsecond: nothing below it is to come.
        this.frontier = lastEnd == Long.MIN_VALUE ? Long.MIN_VALUE : lastEnd - 1;
        start.redo().ifPresent(intent -> {
            redo = intent;
            redoRecords = new OpenRuns(formats.of(intent));
        });
        metrics.bufferedBytes(0);
    }

    /**
     * Buffers one record in its grid cell or the redo window; drops it when a committed window
     * holds it (below the pointer's {@code tEnd}); fails the job when it breaks the frontier's promise.
     */
    void add(QueueRecord r) {
        long ts = r.record().tsMicros();
        if (ts < pointerEnd) {
            metrics.recordBelowPointer();
            return;
        }
        if (ts <= frontier) {
            metrics.lateRecord();
            LOG.error("late record: queue={} partition={} offset={} ts={} frontier={}",
                    queue, r.record().partition(), r.record().offset(), ts, frontier);
            throw new LateRecordException(queue, r.record().partition(), r.record().offset(), ts, frontier);
        }
        // Payload bytes as the size cut weighs them (an empty payload counts 1).
        long bytes = r.record().weight();
        countIfRewritten(r.record());
        long kept;
        if (redo != null && ts < redo.tEnd()) {
            if (ts < redo.tStart()) {
                throw new IllegalStateException("queue '" + queue + "': record " + r.record().partition() + "@"
                        + r.record().offset() + " is stamped " + ts + ", between the commit pointer's tEnd and"
                        + " the start " + redo.tStart() + " of the open intent k=" + redo.k()
                        + ", where the window that wrote the intent had no record: the log or the pointer changed");
            }
            kept = redoRecords.add(r.record(), r.lostBefore());
            redoBytes += bytes;
        } else {
            Cell cell = recent;
            if (cell == null || ts < cell.tStart || ts >= cell.tEnd) {
                cell = cellOf(ts);
                recent = cell;
            }
            kept = cell.add(r, ts, bytes);
        }
        payloadBytes += bytes;
        keptBytes += kept;
        openRecords++;
        metrics.bufferedBytes(payloadBytes);
        budget.add(OpenWindowBudget.weight(kept));
    }

    private Cell cellOf(long ts) {
        WindowBounds bounds = WindowRules.bounds(ts, settings.maxWindowMs(), settings.align());
        Cell cell = cells.get(bounds.tStart());
        if (cell == null) {
            cell = new Cell(bounds, new OpenRuns(formats.own()));
            cells.put(bounds.tStart(), cell);
        }
        return cell;
    }

    /**
     * The queue's frontier rose to {@code f} (a lower one is ignored: frontiers never go back):
     * closes, in time order, the redo window and every grid cell whose last microsecond it reached.
     */
    void advance(long f, Consumer<ClosedWindow> out) {
        if (f <= frontier) {
            return;
        }
        frontier = f;
        if (redo != null && f >= redo.tEnd() - 1) {
            finishRedo(out);
        }
        while (!cells.isEmpty()) {
            Cell cell = cells.firstEntry().getValue();
            if (cell.tEnd - 1 > f) {
                break;
            }
            cells.pollFirstEntry();
            if (recent == cell) {
                recent = null;
            }
            release(cell.records.size(), cell.payloadBytes, cell.records.kept());
            emit(cell.records.close(), cell.minTs, cell.tEnd, out);
        }
    }

    /**
     * Cuts the grid window's records, the lowest stamped {@code firstTs}, into numbered windows from
     * where the last one ended to {@code tEnd}.
     */
    private void emit(ClosingRuns records, long firstTs, long tEnd, Consumer<ClosedWindow> out) {
        long tStart = WindowRules.tiledStart(
                lastEnd == Long.MIN_VALUE ? OptionalLong.empty() : OptionalLong.of(lastEnd), firstTs, settings.align());
        collect(WindowSlicer.slice(settings.tenant(), queue, tStart, tEnd, records, k + 1, settings.targetBytes()),
                Optional.empty(), out);
    }

    /**
     * Closes the open intent's window: {@code k}, bounds and format as the intent records them,
     * whatever this job's settings, never size-cut (the intent is one window).
     */
    private void finishRedo(Consumer<ClosedWindow> out) {
        Intent intent = redo;
        OpenRuns records = redoRecords;
        release(records.size(), redoBytes, records.kept());
        redo = null;
        redoRecords = null;
        redoBytes = 0;
        if (records.isEmpty()) {
            LOG.error("queue '{}': the open intent k={} [{}, {}) has no record left in the log (retention?): its"
                    + " objects, if published, stay outside any manifest; window k={} is cut by this job's settings",
                    queue, intent.k(), intent.tStart(), intent.tEnd(), intent.k());
            return;
        }
        LOG.info("queue '{}': finishing the open intent k={} [{}, {}) {} {} with {} records", queue, intent.k(),
                intent.tStart(), intent.tEnd(), intent.format(), intent.compression(), records.size());
        collect(WindowSlicer.slice(settings.tenant(), queue, intent.tStart(), intent.tEnd(), records.close(),
                intent.k(), Long.MAX_VALUE), Optional.of(intent), out);
    }

    private void collect(List<WindowSlicer.Sliced> windows, Optional<Intent> intent, Consumer<ClosedWindow> out) {
        long prevEnd = lastEnd;
        forgetHandedOn();
        for (WindowSlicer.Sliced sliced : windows) {
            WindowRuns window = sliced.window();
            if (handover.isPresent()) {
                // Only where a restore would read the window again, not its records: the writer holds those.
                unhanded.addLast(new Unhanded(window.k(), prevEnd, sortedPositions(), sliced.oldest()));
                prevEnd = window.tEnd();
            }
            for (CheckpointDoc.Position p : ResumePositions.after(OrderedRuns.of(window.runs()))) {
                closedPositions.put(p.partition(), p);
            }
            Optional<CheckpointDoc> checkpoint = settings.checkpointsAt(window.k())
                    ? Optional.of(new CheckpointDoc(window.k(), window.tEnd(), List.copyOf(closedPositions.values())))
                    : Optional.empty();
            out.accept(new ClosedWindow(window, checkpoint, intent));
            LOG.debug("window closed: queue={} k={} records={} tStart={} tEnd={}",
                    window.queue(), window.k(), window.recordCount(), window.tStart(), window.tEnd());
        }
        WindowRuns last = windows.get(windows.size() - 1).window();
        k = last.k();
        lastEnd = last.tEnd();
    }

    /**
     * Over the memory budget: closes the records stamped at or below the frontier {@code F} into a
     * window ending at {@code F + 1} (the next one tiles on from there); the rest stay open. Only the
     * oldest open cell can hold such records (every cell ending at or below {@code F + 1} closed on
     * the frontier). The redo window is never cut: it must close with exactly the intent's bounds.
     *
     * @return whether anything closed
     */
    boolean cutEarly(Consumer<ClosedWindow> out) {
        if (!canCutEarly()) {
            return false;
        }
        Cell cell = cells.firstEntry().getValue();
        OpenRuns.Split split = cell.records.closeThrough(frontier);
        ClosingRuns closing = split.closing();
        long closingBytes = closing.weight();
        long closingMin = Long.MAX_VALUE;
        for (RunSlice slice : closing.slices()) {
            closingMin = Math.min(closingMin, slice.firstStamp());
        }
        long stayingMin = Long.MAX_VALUE;
        for (RecordRun run : split.staying().runs()) {
            stayingMin = Math.min(stayingMin, run.stamp(0));
        }
        cell.records = split.staying();
        cell.payloadBytes -= closingBytes;
        cell.minTs = stayingMin;
        if (split.staying().isEmpty()) {
            cells.pollFirstEntry();
            if (recent == cell) {
                recent = null;
            }
        }
        long heldBefore = weight();
        // The runs' bytes split exactly into the closing slices' and the staying copies'.
        release(closing.size(), closingBytes, closing.kept());
        long firstK = k + 1;
        emit(closing, closingMin, frontier + 1, out);
        LOG.info("queue '{}': the open windows are over the memory budget ({}={} bytes); window k={}..{} closes early"
                + " at the frontier: {} records, {} payload bytes, [.., {}); the queue held {} bytes, {} stay open",
                queue, WindowOptions.MEMORY_MB.envName(), settings.memoryBytes(), firstK, k, closing.size(),
                closingBytes, frontier + 1, heldBefore, weight());
        return true;
    }

    /**
     * Whether {@link #cutEarly} would close anything: an open record at or below the frontier,
     * outside a redo window. Only a frontier that moves (or a new start) changes the answer.
     */
    boolean canCutEarly() {
        return redo == null && !cells.isEmpty() && cells.firstEntry().getValue().minTs <= frontier;
    }

    private void release(long records, long bytes, long kept) {
        openRecords -= records;
        payloadBytes -= bytes;
        keptBytes -= kept;
        metrics.bufferedBytes(payloadBytes);
        budget.add(-(kept + records * OpenWindowBudget.RECORD_OVERHEAD));
    }

    /** Forgets every open window (the queue starts again, or the operator closes); returns the records dropped. */
    long dropOpen() {
        unhanded.clear();
        long dropped = openRecords;
        release(openRecords, payloadBytes, keptBytes);
        cells.clear();
        recent = null;
        if (redoRecords != null) {
            redoRecords = new OpenRuns(formats.of(redo));
        }
        redoBytes = 0;
        return dropped;
    }

    /** The budget weight of the open windows: the bytes kept of each record plus its overhead. */
    long weight() {
        return keptBytes + openRecords * OpenWindowBudget.RECORD_OVERHEAD;
    }

    /** The payload bytes in open windows. */
    long payloadBytes() {
        return payloadBytes;
    }

    /**
     * The stamp below which every record of the queue is in a closed window: where the last window
     * ended while something is open, else up to the frontier.
     */
    long closedThrough() {
        forgetHandedOn();
        if (!unhanded.isEmpty()) {
            return unhanded.peekFirst().prevEnd();
        }
        if (openRecords > 0 || redo != null || frontier == Long.MIN_VALUE) {
            return lastEnd;
        }
        return Math.max(lastEnd, frontier + 1);
    }

    /** {@link #closedThrough()} as the last {@link #snapshot()} computed it. */
    long closedThroughAtSnapshot() {
        return closedThroughAtSnapshot;
    }

    /** The queue's frontier, {@link Long#MIN_VALUE} before the first. */
    long frontier() {
        return frontier;
    }

    /**
     * The cut a checkpoint carries, and per partition incarnation the offset of its oldest open
     * record (where a restore reads from again) with the lost ranges riding on it: one pass over the
     * open records. Records of an incarnation arrive in offset order, so its oldest open record is
     * the open one with the lowest offset.
     */
    OpenWindows.Snapshot snapshot() {
        closedThroughAtSnapshot = closedThrough();
        OldestOpen oldest = new OldestOpen();
        for (Unhanded closed : unhanded) {
            oldest.merge(closed.oldest());
        }
        if (redoRecords != null) {
            addFirstRecords(redoRecords, oldest);
        }
        for (Cell cell : cells.values()) {
            addFirstRecords(cell.records, oldest);
        }
        Map<String, Long> firstOpen = new HashMap<>();
        List<LostRange> pendingLost = new ArrayList<>();
        oldest.byPartition().forEach((partition, byId) -> byId.forEach((id, r) -> {
            firstOpen.put(PartitionSplit.splitId(queue, partition, id), r.offset());
            pendingLost.addAll(r.lostBefore());
        }));
        pendingLost.sort(LOST_ORDER);
        if (!unhanded.isEmpty()) {
            // The writer has not handed these on: the cut is before the first of them.
            Unhanded first = unhanded.peekFirst();
            return new OpenWindows.Snapshot(new QueueCut(first.k() - 1, first.prevEnd(), pointerEnd,
                    first.prevPositions(), pendingLost), firstOpen);
        }
        return new OpenWindows.Snapshot(new QueueCut(k, lastEnd, pointerEnd, sortedPositions(), pendingLost), firstOpen);
    }

    /** Each run's first record: its incarnation's oldest open one, since a run's offsets rise. */
    private static void addFirstRecords(OpenRuns records, OldestOpen oldest) {
        for (RecordRun run : records.runs()) {
            oldest.add(run.partition(), run.partitionId(), run.offset(0), records.lostAt(run, 0));
        }
    }

    /** Drops the closed windows the writer has handed on since. */
    private void forgetHandedOn() {
        if (handover.isEmpty() || unhanded.isEmpty()) {
            return;
        }
        long handed = handover.get().handedThrough(queue);
        while (!unhanded.isEmpty() && unhanded.peekFirst().k() <= handed) {
            unhanded.pollFirst();
        }
    }

    private List<CheckpointDoc.Position> sortedPositions() {
        List<CheckpointDoc.Position> positions = new ArrayList<>(closedPositions.values());
        positions.sort(POSITION_ORDER);
        return positions;
    }

    /**
     * Every payload the lake will write as something other than its bytes (not one JSON text in
     * well-formed UTF-8, see {@link PayloadText}) is counted and logged once, when it is kept: a
     * real broker never sends one, so each is a broker or producer bug worth a line.
     */
    private void countIfRewritten(LogRecord r) {
        if (PayloadText.isRewritten(r)) {
            metrics.payloadRewritten();
            LOG.warn("payload rewritten: queue={} partition={} offset={}: {}; the lake holds it as a JSON string"
                    + " of its lossy UTF-8", queue, r.partition(), r.offset(), PayloadText.whyRewritten(r.payload()));
        }
    }
}
