package io.queenlake.iceberg;

import io.queenlake.connector.sink.table.CatalogUnavailableException;
import io.queenlake.broker.client.Outages;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A catalog that keeps failing shows one line per queue, not one per retry (issue 27, item 4): the
 * first failed append of a queue logs one WARN naming the queue, its table, the catalog and the
 * error; later failures of that queue log at DEBUG only, until an append of it goes through, which
 * logs one INFO line with how long the table could not be appended to and how many attempts
 * failed. As the lake's {@code S3 unavailable for queue ...} and the broker's outage lines.
 */
final class CatalogOutages {

    private static final Logger LOG = LoggerFactory.getLogger(CatalogOutages.class);

    private final String catalog;
    private final Outages outages;

    /** {@code catalog} as messages name it ({@link CatalogLink#describe()}). */
    CatalogOutages(String catalog, LongSupplier nanoClock) {
        this.catalog = catalog;
        this.outages = new Outages(nanoClock);
    }

    /** An append of {@code queue}'s window failed and will be retried. */
    void failed(String queue, String table, CatalogUnavailableException error) {
        long failures = outages.failed(queue);
        if (failures > 1) {
            LOG.debug("Iceberg table {} of queue '{}' still cannot be appended to ({} failed attempts): {}", table,
                    queue, failures, error.getMessage());
            return;
        }
        LOG.warn("Iceberg catalog unavailable for queue '{}': {} ({}): {}; the queue's windows wait in the lake's"
                + " order, retrying, one line when it answers", queue, table, catalog, error.getMessage());
    }

    /** An append of {@code queue}'s window went through (or found the window there): ends its outage, if open. */
    void answered(String queue, String table) {
        outages.answered(queue).ifPresent(ended -> LOG.info(
                "Iceberg catalog available again for queue '{}': {}, after {} s and {} failed attempts", queue, table,
                ended.seconds(), ended.failures()));
    }

    /** Whether {@code queue}'s appends are failing. */
    boolean failing(String queue) {
        return outages.isOpen(queue);
    }
}
