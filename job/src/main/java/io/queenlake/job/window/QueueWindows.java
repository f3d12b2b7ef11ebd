package io.queenlake.job.window;

import io.queenlake.format.jsonl.PayloadText;
import io.queenlake.format.manifest.CheckpointDoc;
import io.queenlake.format.manifest.Intent;
import io.queenlake.format.manifest.ResumePositions;
import io.queenlake.format.model.LogRecord;
import io.queenlake.format.model.LostRange;
import io.queenlake.format.model.WindowBounds;
import io.queenlake.format.order.Utf8ByteOrder;
import io.queenlake.format.window.WindowInput;
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
 * <p>The per-record path ({@link #add}) is a few comparisons, one list append and counters; the
 * scan for the oldest open record of each partition runs only in {@link #snapshot()}.
 */
final class QueueWindows {

    private static final Logger LOG = LoggerFactory.getLogger(LakeWindowOperator.class);

    private static final Comparator<LostRange> LOST_ORDER = Comparator.comparing(LostRange::partition, Utf8ByteOrder.INSTANCE)
            .thenComparingLong(LostRange::from)
            .thenComparingLong(LostRange::to);
    private static final Comparator<CheckpointDoc.Position> POSITION_ORDER =
            Comparator.comparing(CheckpointDoc.Position::partition, Utf8ByteOrder.INSTANCE);

    /** One open grid cell: its records in arrival order. */
    private static final class Cell {
        final long tStart;
        final long tEnd;
        OpenRecords records = new OpenRecords();
        long payloadBytes;
        long minTs = Long.MAX_VALUE;

        Cell(WindowBounds bounds) {
            this.tStart = bounds.tStart();
            this.tEnd = bounds.tEnd();
        }

        void add(QueueRecord r, long ts, int bytes) {
            records.add(r);
            payloadBytes += bytes;
            if (ts < minTs) {
                minTs = ts;
            }
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
    private final Optional<WindowHandover> handover;
    private final ArrayDeque<Unhanded> unhanded = new ArrayDeque<>();
    private final WindowMetrics.Queue metrics;
    private final OpenWindowBudget.Account budget;

    private long k;
    private long lastEnd;
    private final long pointerEnd;
    private final Map<String, CheckpointDoc.Position> closedPositions = new HashMap<>();

    private Intent redo;
    private OpenRecords redoRecords;
    private long redoBytes;

    private final TreeMap<Long, Cell> cells = new TreeMap<>();
    /** The cell the last record went to: most records go where the one before went. */
    private Cell recent;

    private long frontier;
    private long closedThroughAtSnapshot = Long.MIN_VALUE;
    private long payloadBytes;
    private long openRecords;

    QueueWindows(String queue, StartPoint start, WindowSettings settings, WindowMetrics.Queue metrics,
            OpenWindowBudget.Account budget) {
        this(queue, start, settings, metrics, budget, Optional.empty());
    }

    /** {@code handover}: the writer chained behind, which says which closed windows it handed on. */
    QueueWindows(String queue, StartPoint start, WindowSettings settings, WindowMetrics.Queue metrics,
            OpenWindowBudget.Account budget, Optional<WindowHandover> handover) {
        this.queue = queue;
        this.settings = settings;
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
            redoRecords = new OpenRecords();
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
        int bytes = r.record().payload().length;
        if (redo != null && ts < redo.tEnd()) {
            if (ts < redo.tStart()) {
                throw new IllegalStateException("queue '" + queue + "': record " + r.record().partition() + "@"
                        + r.record().offset() + " is stamped " + ts + ", between the commit pointer's tEnd and"
                        + " the start " + redo.tStart() + " of the open intent k=" + redo.k()
                        + ", where the window that wrote the intent had no record: the log or the pointer changed");
            }
            redoRecords.add(r);
            redoBytes += bytes;
        } else {
            Cell cell = recent;
            if (cell == null || ts < cell.tStart || ts >= cell.tEnd) {
                cell = cellOf(ts);
                recent = cell;
            }
            cell.add(r, ts, bytes);
        }
        payloadBytes += bytes;
        openRecords++;
        metrics.bufferedBytes(payloadBytes);
        budget.add(OpenWindowBudget.weight(bytes));
    }

    private Cell cellOf(long ts) {
        WindowBounds bounds = WindowRules.bounds(ts, settings.maxWindowMs(), settings.align());
        Cell cell = cells.get(bounds.tStart());
        if (cell == null) {
            cell = new Cell(bounds);
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
            release(cell.records.size(), cell.payloadBytes);
            emit(cell.records, cell.minTs, cell.tEnd, out);
        }
    }

    /**
     * Cuts the grid window's records, the lowest stamped {@code firstTs}, into numbered windows from
     * where the last one ended to {@code tEnd}.
     */
    private void emit(OpenRecords records, long firstTs, long tEnd, Consumer<ClosedWindow> out) {
        long tStart = WindowRules.tiledStart(
                lastEnd == Long.MIN_VALUE ? OptionalLong.empty() : OptionalLong.of(lastEnd), firstTs, settings.align());
        countRewrittenPayloads(records);
        collect(WindowSlicer.slice(settings.tenant(), queue, tStart, tEnd, records, k + 1, settings.targetBytes()),
                Optional.empty(), lostOf(records), out);
    }

    /**
     * Closes the open intent's window: {@code k}, bounds and format as the intent records them,
     * whatever this job's settings, never size-cut (the intent is one window).
     */
    private void finishRedo(Consumer<ClosedWindow> out) {
        Intent intent = redo;
        OpenRecords records = redoRecords;
        release(records.size(), redoBytes);
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
        countRewrittenPayloads(records);
        collect(WindowSlicer.slice(settings.tenant(), queue, intent.tStart(), intent.tEnd(), records, intent.k(),
                Long.MAX_VALUE), Optional.of(intent), lostOf(records), out);
    }

    /** The lost ranges riding on records, by record (few carry any), kept only while a writer hands windows on. */
    private Map<LogRecord, List<LostRange>> lostOf(OpenRecords records) {
        return handover.isEmpty() ? Map.of() : records.lost();
    }

    private void collect(List<WindowInput> windows, Optional<Intent> intent, Map<LogRecord, List<LostRange>> lost,
            Consumer<ClosedWindow> out) {
        long prevEnd = lastEnd;
        forgetHandedOn();
        for (WindowInput window : windows) {
            if (handover.isPresent()) {
                // Only where a restore would read the window again, not its records: the writer holds those.
                OldestOpen oldest = new OldestOpen();
                for (LogRecord r : window.records()) {
                    oldest.add(r, lost.isEmpty() ? List.of() : lost.getOrDefault(r, List.of()));
                }
                unhanded.addLast(new Unhanded(window.k(), prevEnd, sortedPositions(), oldest.byPartition()));
                prevEnd = window.tEnd();
            }
            closedPositions.putAll(ResumePositions.after(window.records()));
            Optional<CheckpointDoc> checkpoint = settings.checkpointsAt(window.k())
                    ? Optional.of(new CheckpointDoc(window.k(), window.tEnd(), List.copyOf(closedPositions.values())))
                    : Optional.empty();
            out.accept(new ClosedWindow(window, checkpoint, intent));
            LOG.debug("window closed: queue={} k={} records={} tStart={} tEnd={}",
                    window.queue(), window.k(), window.records().size(), window.tStart(), window.tEnd());
        }
        WindowInput last = windows.get(windows.size() - 1);
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
        // Sized for the whole cell: most of it usually closes, and growing copies a list of a million references.
        OpenRecords closing = new OpenRecords(cell.records.size());
        OpenRecords staying = new OpenRecords();
        long closingBytes = 0;
        long closingMin = Long.MAX_VALUE;
        long stayingMin = Long.MAX_VALUE;
        for (LogRecord r : cell.records.records()) {
            long ts = r.tsMicros();
            if (ts <= frontier) {
                closing.add(r, cell.records.lostBefore(r));
                closingBytes += r.payload().length;
                closingMin = Math.min(closingMin, ts);
            } else {
                staying.add(r, cell.records.lostBefore(r));
                stayingMin = Math.min(stayingMin, ts);
            }
        }
        cell.records = staying;
        cell.payloadBytes -= closingBytes;
        cell.minTs = stayingMin;
        if (staying.isEmpty()) {
            cells.pollFirstEntry();
            if (recent == cell) {
                recent = null;
            }
        }
        long heldBefore = weight();
        release(closing.size(), closingBytes);
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

    private void release(long records, long bytes) {
        openRecords -= records;
        payloadBytes -= bytes;
        metrics.bufferedBytes(payloadBytes);
        budget.add(-(bytes + records * OpenWindowBudget.RECORD_OVERHEAD));
    }

    /** Forgets every open window (the queue starts again, or the operator closes); returns the records dropped. */
    long dropOpen() {
        unhanded.clear();
        long dropped = openRecords;
        release(openRecords, payloadBytes);
        cells.clear();
        recent = null;
        if (redoRecords != null) {
            redoRecords.clear();
        }
        redoBytes = 0;
        return dropped;
    }

    /** The budget weight of the open windows: payload bytes plus each record's overhead. */
    long weight() {
        return payloadBytes + openRecords * OpenWindowBudget.RECORD_OVERHEAD;
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
            redoRecords.forEach(oldest::add);
        }
        for (Cell cell : cells.values()) {
            cell.records.forEach(oldest::add);
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
     * well-formed UTF-8, see {@link PayloadText}) is counted and logged once, when its window
     * closes: a real broker never sends one, so each is a broker or producer bug worth a line.
     */
    private void countRewrittenPayloads(OpenRecords records) {
        for (LogRecord r : records.records()) {
            if (PayloadText.isRewritten(r)) {
                metrics.payloadRewritten();
                LOG.warn("payload rewritten: queue={} partition={} offset={}: {}; the lake holds it as a JSON string"
                        + " of its lossy UTF-8", queue, r.partition(), r.offset(), PayloadText.whyRewritten(r.payload()));
            }
        }
    }
}
