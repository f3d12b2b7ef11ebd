package io.queenlake.connector.window;

import io.queenlake.format.model.LogRecord;
import io.queenlake.format.model.WindowBounds;
import io.queenlake.source.QueueRecord;
import java.util.Collection;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * One queue's open grid cells, by start: the windows of the epoch-aligned grid that hold records
 * and have not closed. A record goes to the cell its stamp falls in; a cell closes, oldest first,
 * once the queue's frontier reached its last microsecond. Task thread only.
 */
final class GridCells {

    /** One open grid cell: its records, kept as runs. */
    static final class Cell {
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
        long add(QueueRecord r, long ts, long bytes, Consumer<LogRecord> onRewritten) {
            payloadBytes += bytes;
            if (ts < minTs) {
                minTs = ts;
            }
            return records.add(r.record(), r.lostBefore(), onRewritten);
        }
    }

    private final WindowSettings settings;
    private final WindowFormats formats;
    private final TreeMap<Long, Cell> cells = new TreeMap<>();
    /** The cell the last record went to: most records go where the one before went. */
    private Cell recent;

    GridCells(WindowSettings settings, WindowFormats formats) {
        this.settings = settings;
        this.formats = formats;
    }

    /** The cell a record stamped {@code ts} goes to, opened if need be. */
    Cell cellOf(long ts) {
        Cell cell = recent;
        if (cell != null && ts >= cell.tStart && ts < cell.tEnd) {
            return cell;
        }
        WindowBounds bounds = WindowRules.bounds(ts, settings.maxWindowMs(), settings.align());
        cell = cells.get(bounds.tStart());
        if (cell == null) {
            cell = new Cell(bounds, new OpenRuns(formats.own()));
            cells.put(bounds.tStart(), cell);
        }
        recent = cell;
        return cell;
    }

    /** Removes and returns the oldest cell if the frontier {@code f} reached its last microsecond, else null. */
    Cell pollClosedBy(long f) {
        if (cells.isEmpty() || cells.firstEntry().getValue().tEnd - 1 > f) {
            return null;
        }
        return forget(cells.pollFirstEntry().getValue());
    }

    /** The oldest open cell, null when none is. */
    Cell oldest() {
        return cells.isEmpty() ? null : cells.firstEntry().getValue();
    }

    /** Removes the oldest cell (its records all closed early). */
    void removeOldest() {
        forget(cells.pollFirstEntry().getValue());
    }

    Collection<Cell> open() {
        return cells.values();
    }

    void clear() {
        cells.clear();
        recent = null;
    }

    private Cell forget(Cell cell) {
        if (recent == cell) {
            recent = null;
        }
        return cell;
    }
}
