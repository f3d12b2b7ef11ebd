package io.queenlake.job.iceberg;

import java.util.HashMap;
import java.util.Map;
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

    private record Outage(long sinceNanos, long failures) {}

    private final String catalog;
    private final LongSupplier nanoClock;
    private final Map<String, Outage> open = new HashMap<>();

    /** {@code catalog} as messages name it ({@link CatalogLink#describe()}). */
    CatalogOutages(String catalog, LongSupplier nanoClock) {
        this.catalog = catalog;
        this.nanoClock = nanoClock;
    }

    /** An append of {@code queue}'s window failed and will be retried. */
    synchronized void failed(String queue, String table, CatalogUnavailableException error) {
        Outage outage = open.get(queue);
        if (outage != null) {
            open.put(queue, new Outage(outage.sinceNanos(), outage.failures() + 1));
            LOG.debug("Iceberg table {} of queue '{}' still cannot be appended to ({} failed attempts): {}", table,
                    queue, outage.failures() + 1, error.getMessage());
            return;
        }
        open.put(queue, new Outage(nanoClock.getAsLong(), 1));
        LOG.warn("Iceberg catalog unavailable for queue '{}': {} ({}): {}; the queue's windows wait in the lake's"
                + " order, retrying, one line when it answers", queue, table, catalog, error.getMessage());
    }

    /** An append of {@code queue}'s window went through (or found the window there): ends its outage, if open. */
    synchronized void answered(String queue, String table) {
        Outage outage = open.remove(queue);
        if (outage == null) {
            return;
        }
        long seconds = (nanoClock.getAsLong() - outage.sinceNanos()) / 1_000_000_000L;
        LOG.info("Iceberg catalog available again for queue '{}': {}, after {} s and {} failed attempts", queue, table,
                seconds, outage.failures());
    }

    /** Whether {@code queue}'s appends are failing. */
    synchronized boolean failing(String queue) {
        return open.containsKey(queue);
    }
}
