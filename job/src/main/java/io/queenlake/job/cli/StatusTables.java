package io.queenlake.job.cli;

import io.queenlake.job.iceberg.CatalogLink;
import io.queenlake.job.iceberg.TableStatus;
import java.io.Closeable;
import java.io.IOException;
import java.io.PrintStream;
import java.util.Optional;
import org.apache.iceberg.catalog.Catalog;

/**
 * The Iceberg lines of {@code ./queen-lake status}: one client of the catalog for every queue, and
 * per queue one line ({@link TableStatus#line}). A catalog that cannot be reached is said once per
 * queue and never stops the broker's lines; without a catalog it prints nothing.
 */
final class StatusTables implements Closeable {

    private final CatalogLink link;
    private final Catalog catalog;
    private final String sink;
    private final PrintStream out;

    private StatusTables(CatalogLink link, Catalog catalog, String sink, PrintStream out) {
        this.link = link;
        this.catalog = catalog;
        this.sink = sink;
        this.out = out;
    }

    static StatusTables open(Optional<CatalogLink> link, String sink, PrintStream out) {
        if (link.isEmpty()) {
            return new StatusTables(null, null, sink, out);
        }
        Catalog catalog = null;
        try {
            catalog = link.get().open();
        } catch (RuntimeException e) {
            out.println("Iceberg tables not shown: the " + link.get().describe() + " did not answer (" + e.getMessage()
                    + "): check QUEEN_LAKE_ICEBERG_URI and its credentials.");
        }
        return new StatusTables(link.get(), catalog, sink, out);
    }

    /** The line of {@code queue}'s table, against its commit pointer's {@code k} (0 for none). */
    void print(String queue, long pointerK) {
        if (catalog == null) {
            return;
        }
        try {
            out.println(TableStatus.read(catalog, link.icebergNamespace(), sink, queue).line(pointerK));
        } catch (RuntimeException e) {
            out.println("  Iceberg table of queue '" + queue + "': the " + link.describe() + " did not answer ("
                    + e.getMessage() + "): check QUEEN_LAKE_ICEBERG_URI and its credentials.");
        }
    }

    @Override
    public void close() throws IOException {
        if (catalog instanceof Closeable closeable) {
            closeable.close();
        }
    }
}
