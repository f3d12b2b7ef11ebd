package io.queenlake.job.cli;

import io.queenlake.iceberg.CatalogLink;
import io.queenlake.iceberg.TableStatus;
import java.io.Closeable;
import java.io.IOException;
import java.io.PrintStream;
import java.util.Optional;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NotAuthorizedException;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.exceptions.RuntimeIOException;

/**
 * The Iceberg lines of {@code ./queen-lake status}: one read-only client of the catalog
 * ({@link CatalogLink#openForReading}) for every queue, and per queue one line
 * ({@link TableStatus#line}). A failure is said in one line naming what to check and never stops
 * the broker's lines; once the catalog itself failed, the other queues' tables are not asked
 * (each would wait out the same timeout). Without a catalog it prints nothing.
 */
final class StatusTables implements Closeable {

    private final CatalogLink link;
    private final Catalog catalog;
    private final String sink;
    private final PrintStream out;
    private String unanswered;

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
            catalog = link.get().openForReading();
        } catch (RuntimeException e) {
            out.println("Iceberg tables not shown: the " + link.get().describe() + " could not be opened ("
                    + e.getMessage() + "): check QUEEN_LAKE_ICEBERG_URI and its credentials.");
        }
        return new StatusTables(link.get(), catalog, sink, out);
    }

    /** The line of {@code queue}'s table, against its commit pointer's {@code k} (0 for none). */
    void print(String queue, long pointerK) {
        if (catalog == null) {
            return;
        }
        String of = "  Iceberg table of queue '" + queue + "': ";
        if (unanswered != null) {
            out.println(of + "not asked, the catalog failed for queue '" + unanswered + "' above");
            return;
        }
        try {
            out.println(TableStatus.read(catalog, link, sink, queue).line(pointerK));
        } catch (NotAuthorizedException | ForbiddenException e) {
            out.println(of + "the " + link.describe() + " refused it (" + e.getMessage() + "): check"
                    + " QUEEN_LAKE_ICEBERG_TOKEN or QUEEN_LAKE_ICEBERG_CREDENTIAL (QUEEN_LAKE_ICEBERG_USER and"
                    + " QUEEN_LAKE_ICEBERG_PASSWORD for jdbc) and the catalog's grants on the namespace.");
        } catch (NotFoundException | RuntimeIOException e) {
            out.println(of + "its metadata could not be read from the warehouse (" + e.getMessage() + "): check the"
                    + " lake's bucket settings and credentials (QUEEN_S3_ENDPOINT, QUEEN_S3_ACCESS_KEY, ...).");
        } catch (RuntimeException e) {
            unanswered = queue;
            out.println(of + "could not be read through the " + link.describe() + " (" + e.getMessage()
                    + "): check QUEEN_LAKE_ICEBERG_URI and its credentials.");
        }
    }

    @Override
    public void close() throws IOException {
        if (catalog instanceof Closeable closeable) {
            closeable.close();
        }
    }
}
