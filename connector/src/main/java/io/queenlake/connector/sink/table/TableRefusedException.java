package io.queenlake.connector.sink.table;

import org.apache.flink.annotation.PublicEvolving;

/**
 * A table the job cannot append a window to without someone changing it back (its columns or its
 * partitioning changed, the catalog refused the credentials): a restart would fail the same way, so
 * the job stops with this one sentence and nothing is appended twice or skipped.
 */
@PublicEvolving
public final class TableRefusedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public TableRefusedException(String message) {
        super(message);
    }

    public TableRefusedException(String message, Throwable cause) {
        super(message, cause);
    }
}
