package io.queenlake.format.window;

import io.queenlake.format.model.LostRange;
import io.queenlake.format.model.WindowBounds;
import java.util.List;
import java.util.Objects;

/**
 * One closed window to encode, whichever way its records are held: as records
 * ({@link WindowInput}, any order) or as the runs an open window kept them in, already encoded
 * ({@link WindowRuns}). Both encode into the same bytes for the same records.
 */
public sealed interface WindowContent permits WindowInput, WindowRuns {

    String tenant();

    String queue();

    long k();

    long tStart();

    long tEnd();

    List<LostRange> lost();

    /** The number of records. */
    int recordCount();

    /** The size-cut weight of all records (each record's payload bytes, at least one). */
    long weight();

    /** Refuses a window that is not numbered from 1, not a non-empty interval, or without records. */
    static void requireNumbered(String tenant, String queue, long k, long tStart, long tEnd, boolean empty) {
        Objects.requireNonNull(tenant, "tenant");
        Objects.requireNonNull(queue, "queue");
        if (k < 1) {
            throw new IllegalArgumentException("window numbers start at 1, got k=" + k + " for queue '" + queue + "'");
        }
        if (tEnd <= tStart) {
            throw new IllegalArgumentException("window " + k + " of queue '" + queue + "' must end after it starts, got ["
                    + tStart + ", " + tEnd + ")");
        }
        if (empty) {
            throw new IllegalArgumentException("window " + k + " of queue '" + queue
                    + "' has no record: empty windows are never written");
        }
    }

    /** The window's interval, {@code [tStart, tEnd)}. */
    default WindowBounds bounds() {
        return new WindowBounds(tStart(), tEnd());
    }
}
