package io.queenlake.connector.window;

import io.queenlake.format.manifest.Intent;
import io.queenlake.format.model.LogRecord;
import io.queenlake.source.QueueRecord;
import java.util.function.Consumer;

/**
 * The open intent's window while a start redoes it (DESIGN "Restore"): its records from the
 * pointer's {@code tEnd} to the intent's, closed with exactly the intent's bounds, number and
 * format, whatever this job's settings. Task thread only.
 */
final class RedoWindow {

    private final Intent intent;
    private final WindowFormats formats;
    private OpenRuns records;
    private long payloadBytes;

    RedoWindow(Intent intent, WindowFormats formats) {
        this.intent = intent;
        this.formats = formats;
        this.records = new OpenRuns(formats.of(intent));
    }

    Intent intent() {
        return intent;
    }

    /** Whether a record stamped {@code ts} (at or above the pointer's {@code tEnd}) belongs here. */
    boolean holds(long ts) {
        return ts < intent.tEnd();
    }

    /** Whether the frontier {@code f} reached the intent's last microsecond. */
    boolean closesAt(long f) {
        return f >= intent.tEnd() - 1;
    }

    /** Keeps the record; returns the bytes kept for it. */
    long add(String queue, QueueRecord r, long ts, long bytes, Consumer<LogRecord> onRewritten) {
        if (ts < intent.tStart()) {
            throw new IllegalStateException("queue '" + queue + "': record " + r.record().partition() + "@"
                    + r.record().offset() + " is stamped " + ts + ", between the commit pointer's tEnd and"
                    + " the start " + intent.tStart() + " of the open intent k=" + intent.k()
                    + ", where the window that wrote the intent had no record: the log or the pointer changed");
        }
        payloadBytes += bytes;
        return records.add(r.record(), r.lostBefore(), onRewritten);
    }

    OpenRuns records() {
        return records;
    }

    long payloadBytes() {
        return payloadBytes;
    }

    /** Forgets the records (the queue starts again): the broker gives them again. */
    void dropRecords() {
        records = new OpenRuns(formats.of(intent));
        payloadBytes = 0;
    }
}
