package io.queenlake.connector.sink.table;

import org.apache.flink.annotation.PublicEvolving;

/**
 * The catalog or the storage of its metadata failed (unreachable, an error answer, a commit whose
 * outcome is unknown): the committer retries the window, and the retry finds it in the table's
 * history if it landed.
 */
@PublicEvolving
public final class CatalogUnavailableException extends Exception {

    private static final long serialVersionUID = 1L;

    public CatalogUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
