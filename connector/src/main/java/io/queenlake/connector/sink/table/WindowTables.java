package io.queenlake.connector.sink.table;

import io.queenlake.format.manifest.Manifest;
import io.queenlake.format.model.Align;
import io.queenlake.format.object.Format;
import java.io.Closeable;
import java.io.Serializable;
import java.util.Optional;
import java.util.function.Function;
import org.apache.flink.annotation.PublicEvolving;

/**
 * Tables that also hold every committed window, appended by the committer after the window's
 * manifest and before its pointer: the pointer moves only once the tables hold the window, so a
 * crash between the two appends it again, and the tables must find it there and not append it twice.
 * The lake sink knows no table format; {@code queen-lake-iceberg}'s catalog link is one.
 * One instance per committer subtask; {@link #append} runs on the queue's commit lane, so a queue's
 * windows come one at a time and in {@code k} order, and different queues' concurrently.
 */
@PublicEvolving
public interface WindowTables extends Closeable {

    /**
     * Appends the committed window to its queue's table unless the table holds it already.
     *
     * @param manifestKey the window's manifest key: the lake's other manifests are its neighbours
     * @return whether this call appended it
     * @throws CatalogUnavailableException when a retry may append it (the committer retries the window)
     * @throws TableRefusedException when no retry can (the job stops with its message)
     */
    boolean append(Manifest window, String manifestKey) throws CatalogUnavailableException;

    /** How each committer subtask opens its tables; shipped with the job graph. */
    @PublicEvolving
    interface Factory extends Serializable {

        /** The tables of the lake written by {@code lake}'s sink; the committer closes them. */
        WindowTables open(Lake lake);

        /**
         * Why these tables cannot hold a lake of {@code format}, as one sentence that says what to
         * set; empty when they can.
         */
        Optional<String> problemWith(Format format);
    }

    /**
     * What the tables know of the lake: the sink and tenant whose windows they hold, the window grid,
     * and where a lake key is read and written ({@code s3://bucket/key}).
     */
    @PublicEvolving
    record Lake(String sink, String tenant, Align align, Function<String, String> pathOfKey) {
    }
}
