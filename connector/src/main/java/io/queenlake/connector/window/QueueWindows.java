package io.queenlake.connector.window;

import io.queenlake.format.jsonl.PayloadText;
import io.queenlake.format.manifest.CheckpointDoc;
import io.queenlake.format.manifest.Intent;
import io.queenlake.format.manifest.ResumePositions;
import io.queenlake.format.model.LogRecord;
import io.queenlake.format.model.LostRange;
import io.queenlake.format.order.Utf8ByteOrder;
import io.queenlake.format.run.OrderedRuns;
import io.queenlake.format.run.RecordRun;
import io.queenlake.format.window.WindowRuns;
import io.queenlake.source.OpenWindows;
import io.queenlake.source.QueueRecord;
import io.queenlake.source.split.PartitionSplit;
import io.queenlake.source.split.QueueCut;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One queue's windows, in memory only (docs/ARCHITECTURE.md "Windows"): the open grid cells
 * ({@link GridCells}) and the redo window ({@link RedoWindow}) with their records, the numbering ({@code k}, where window {@code k} ended, the
 * pointer's {@code tEnd}, the positions after the closed windows) and the queue's frontier. A
 * window closes on this queue's frontier only; a restore reads the open records again from the
 * broker, so nothing here is Flink state; the checkpoint's cut stays before the closed windows the
 * writer has not handed on ({@link UnhandedWindows}). Used from the task thread only.
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

    private final String queue;
    private final WindowSettings settings;
    private final UnhandedWindows unhanded;
    private final WindowMetrics.Queue metrics;
    private final OpenWindowBudget.Account budget;
    private final Consumer<LogRecord> onRewritten = this::countRewritten;

    private long k;
    private long lastEnd;
    private final long pointerEnd;
    private final Map<String, CheckpointDoc.Position> closedPositions = new HashMap<>();

    /** The open intent's window while it is redone, else null. */
    private RedoWindow redo;
    private final GridCells cells;

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
        this.unhanded = new UnhandedWindows(queue, handover);
        this.cells = new GridCells(settings, formats);
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
        start.redo().ifPresent(intent -> redo = new RedoWindow(intent, formats));
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
        long kept;
        if (redo != null && redo.holds(ts)) {
            kept = redo.add(queue, r, ts, bytes, onRewritten);
        } else {
            kept = cells.cellOf(ts).add(r, ts, bytes, onRewritten);
        }
        payloadBytes += bytes;
        keptBytes += kept;
        openRecords++;
        metrics.bufferedBytes(payloadBytes);
        budget.add(OpenWindowBudget.weight(kept));
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
        if (redo != null && redo.closesAt(f)) {
            finishRedo(out);
        }
        for (GridCells.Cell cell = cells.pollClosedBy(f); cell != null; cell = cells.pollClosedBy(f)) {
            release(cell.records.size(), cell.payloadBytes, cell.records.kept());
            emit(cell.records.close(), cell.minTs, cell.tEnd, out);
        }
        if (redo == null) {
            closeSizeCutPieces(out);
        }
    }

    /**
     * The size cut as bytes accumulate (docs/ARCHITECTURE.md "Windows"): once the records of the
     * open grid cell at or below the frontier weigh the target and a cut stamp lies among them, the
     * pieces before the last such cut close at once instead of when the cell does, so they encode
     * and upload while the rest of the cell is read. The pieces are the ones the whole cell's cut
     * would give: a cut depends only on the records stamped up to it, all here once the frontier
     * passed it, and the weight starts again from zero at each cut either way.
     */
    private void closeSizeCutPieces(Consumer<ClosedWindow> out) {
        GridCells.Cell cell = cells.oldest();
        long target = settings.targetBytes();
        if (cell == null || cell.payloadBytes < target || cell.minTs > frontier) {
            return;
        }
        long[] cuts = cell.records.cutStampsAtOrBelow(frontier, target);
        if (cuts.length == 0) {
            return; // under the target, or reached by the last stamps passed: the cut is the next stamp, not yet known
        }
        long cut = cuts[cuts.length - 1];
        ClosingRuns closing = closeOldestThrough(cut - 1);
        long firstK = k + 1;
        // The cuts before the last are the closing records' own: a cut depends only on the records below it.
        emit(closing, closing.firstStamp(), cut, Arrays.copyOf(cuts, cuts.length - 1), out);
        LOG.debug("queue '{}': window k={}..{} closes at its size cut, before its grid cell: {} records, [.., {})",
                queue, firstK, k, closing.size(), cut);
    }

    /**
     * Cuts the grid window's records, the lowest stamped {@code firstTs}, into numbered windows from
     * where the last one ended to {@code tEnd}.
     */
    private void emit(ClosingRuns records, long firstTs, long tEnd, Consumer<ClosedWindow> out) {
        emit(records, firstTs, tEnd, WindowSlicer.cutStamps(records, settings.targetBytes()), out);
    }

    private void emit(ClosingRuns records, long firstTs, long tEnd, long[] cuts, Consumer<ClosedWindow> out) {
        long tStart = WindowRules.tiledStart(
                lastEnd == Long.MIN_VALUE ? OptionalLong.empty() : OptionalLong.of(lastEnd), firstTs, settings.align());
        collect(WindowSlicer.slice(settings.tenant(), queue, tStart, tEnd, records, k + 1, cuts), Optional.empty(), out);
    }

    /**
     * Closes the open intent's window: {@code k}, bounds and format as the intent records them,
     * whatever this job's settings, never size-cut (the intent is one window).
     */
    private void finishRedo(Consumer<ClosedWindow> out) {
        Intent intent = redo.intent();
        OpenRuns records = redo.records();
        release(records.size(), redo.payloadBytes(), records.kept());
        redo = null;
        if (records.isEmpty()) {
            LOG.error("queue '{}': the open intent k={} [{}, {}) has no record left in the log (retention?): its"
                    + " objects, if published, stay outside any manifest; window k={} is cut by this job's settings",
                    queue, intent.k(), intent.tStart(), intent.tEnd(), intent.k());
            return;
        }
        LOG.info("queue '{}': finishing the open intent k={} [{}, {}) {} {} with {} records", queue, intent.k(),
                intent.tStart(), intent.tEnd(), intent.format(), intent.compression(), records.size());
        collect(WindowSlicer.slice(settings.tenant(), queue, intent.tStart(), intent.tEnd(), records.close(),
                intent.k(), WindowSlicer.NO_CUTS), Optional.of(intent), out);
    }

    private void collect(List<WindowSlicer.Sliced> windows, Optional<Intent> intent, Consumer<ClosedWindow> out) {
        long prevEnd = lastEnd;
        unhanded.forgetHandedOn();
        for (WindowSlicer.Sliced sliced : windows) {
            WindowRuns window = sliced.window();
            if (unhanded.tracking()) {
                unhanded.closed(new UnhandedWindows.Unhanded(window.k(), prevEnd, sortedPositions(), sliced.oldest()));
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
        long heldBefore = weight();
        ClosingRuns closing = closeOldestThrough(frontier);
        long firstK = k + 1;
        emit(closing, closing.firstStamp(), frontier + 1, out);
        LOG.info("queue '{}': the open windows are over the memory budget ({}={} bytes); window k={}..{} closes early"
                + " at the frontier: {} records, {} payload bytes, [.., {}); the queue held {} bytes, {} stay open",
                queue, WindowOptions.MEMORY_MB.key(), settings.memoryBytes(), firstK, k, closing.size(),
                closing.weight(), frontier + 1, heldBefore, weight());
        return true;
    }

    /**
     * Takes the oldest cell's records stamped at or below {@code lastStamp} out of it (the rest stay
     * open; the cell goes when nothing does) and out of the budget, for a window closing before its cell.
     */
    private ClosingRuns closeOldestThrough(long lastStamp) {
        GridCells.Cell cell = cells.oldest();
        OpenRuns.Split split = cell.records.closeThrough(lastStamp);
        ClosingRuns closing = split.closing();
        long stayingMin = Long.MAX_VALUE;
        for (RecordRun run : split.staying().runs()) {
            stayingMin = Math.min(stayingMin, run.stamp(0));
        }
        cell.records = split.staying();
        cell.payloadBytes -= closing.weight();
        cell.minTs = stayingMin;
        if (split.staying().isEmpty()) {
            cells.removeOldest();
        }
        // The runs' bytes split exactly into the closing slices' and the staying copies'.
        release(closing.size(), closing.weight(), closing.kept());
        return closing;
    }

    /**
     * Whether {@link #cutEarly} would close anything: an open record at or below the frontier,
     * outside a redo window. Only a frontier that moves (or a new start) changes the answer.
     */
    boolean canCutEarly() {
        GridCells.Cell oldest = cells.oldest();
        return redo == null && oldest != null && oldest.minTs <= frontier;
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
        if (redo != null) {
            redo.dropRecords();
        }
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
        Optional<UnhandedWindows.Unhanded> first = unhanded.first();
        if (first.isPresent()) {
            return first.get().prevEnd();
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
        unhanded.addOldest(oldest);
        if (redo != null) {
            addFirstRecords(redo.records(), oldest);
        }
        for (GridCells.Cell cell : cells.open()) {
            addFirstRecords(cell.records, oldest);
        }
        Map<String, Long> firstOpen = new HashMap<>();
        List<LostRange> pendingLost = new ArrayList<>();
        oldest.byPartition().forEach((partition, byId) -> byId.forEach((id, r) -> {
            firstOpen.put(PartitionSplit.splitId(queue, partition, id), r.offset());
            pendingLost.addAll(r.lostBefore());
        }));
        pendingLost.sort(LOST_ORDER);
        Optional<UnhandedWindows.Unhanded> notHanded = unhanded.first();
        if (notHanded.isPresent()) {
            // The writer has not handed these on: the cut is before the first of them.
            UnhandedWindows.Unhanded first = notHanded.get();
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

    private List<CheckpointDoc.Position> sortedPositions() {
        List<CheckpointDoc.Position> positions = new ArrayList<>(closedPositions.values());
        positions.sort(POSITION_ORDER);
        return positions;
    }

    /**
     * Every payload the lake will write as something other than its bytes (not one JSON text in
     * well-formed UTF-8, see {@link PayloadText}) is counted and logged once, when it is kept (its
     * encoding says so, {@link io.queenlake.format.run.RecordEncoding#append}): a
     * real broker never sends one, so each is a broker or producer bug worth a line.
     */
    private void countRewritten(LogRecord r) {
        metrics.payloadRewritten();
        LOG.warn("payload rewritten: queue={} partition={} offset={}: {}; the lake holds it as a JSON string"
                + " of its lossy UTF-8", queue, r.partition(), r.offset(), PayloadText.whyRewritten(r.payload()));
    }
}
