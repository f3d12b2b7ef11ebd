package io.queenlake.format.window;

import io.queenlake.format.model.LostRange;
import io.queenlake.format.model.WindowBounds;
import java.util.List;

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

    /** The window's interval, {@code [tStart, tEnd)}. */
    default WindowBounds bounds() {
        return new WindowBounds(tStart(), tEnd());
    }
}
