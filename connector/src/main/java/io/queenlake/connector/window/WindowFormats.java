package io.queenlake.connector.window;

import io.queenlake.format.manifest.Intent;
import io.queenlake.format.object.Format;
import io.queenlake.format.run.RecordEncoding;
import java.util.HashMap;
import java.util.Map;

/**
 * How one window operator keeps records for the lake's format ({@link RecordEncoding}): this job's
 * format for its grid windows, and an open intent's for the window that finishes it, which the
 * sink encodes with the intent's format. One instance per operator, used on its task thread only,
 * shared by all its queues (an encoding holds a line buffer).
 */
final class WindowFormats {

    private final Format own;
    private final Map<String, RecordEncoding> byFormat = new HashMap<>();

    WindowFormats(Format own) {
        this.own = own;
    }

    RecordEncoding own() {
        return of(own);
    }

    /** The encoding of the format the intent records, whatever this job's settings. */
    RecordEncoding of(Intent intent) {
        return of(Format.of(intent.format(), intent.compression()));
    }

    private RecordEncoding of(Format format) {
        return byFormat.computeIfAbsent(format.writer(), w -> format.encoder().recordEncoding());
    }
}
