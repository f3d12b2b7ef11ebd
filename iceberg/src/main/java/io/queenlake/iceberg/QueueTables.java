package io.queenlake.iceberg;

import io.queenlake.connector.sink.table.CatalogUnavailableException;
import io.queenlake.connector.sink.table.TableRefusedException;
import io.queenlake.format.manifest.Manifest;
import io.queenlake.format.model.Align;
import io.queenlake.connector.sink.table.WindowTables;
import java.io.IOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NotAuthorizedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The committer's side of the catalog: each queue's table, created when missing (its namespace
 * too), and the window appends to it ({@link WindowAppend}). One instance per committer subtask;
 * the tables are loaded once and refreshed before every append; a window's append runs on its
 * queue's commit thread. Each table is kept small ({@link TableUpkeep}): its properties delete old
 * metadata files and merge manifests on every commit, set at creation and again where they differ
 * on a run's first append; its snapshots expire on a thread of their own ({@link TableMaintenance}).
 * A table that lacks committed windows below the one appended (created while the lake already had
 * windows, or behind it) first gets them from their manifests in the lake ({@link TableHistory}),
 * so it holds the lake's windows as the lake does.
 */
public final class QueueTables implements WindowTables {

    private static final Logger LOG = LoggerFactory.getLogger(QueueTables.class);

    private final CatalogLink link;
    private final String sink;
    private final String tenant;
    private final Align align;
    private final Function<String, String> pathOfKey;
    private final Map<String, Table> tables = new HashMap<>();
    /** Queues whose table's upkeep properties this run checked. */
    private final Set<String> upkept = new HashSet<>();
    private final TableMaintenance maintenance;
    private final TableHistory history;
    private final CatalogOutages outages;
    private Catalog catalog;

    /**
     * @param pathOfKey a lake key's path as readers open it ({@code s3://bucket/key}), and as the
     *     committer writes it: the manifests of windows the table lacks are read there
     */
    public QueueTables(CatalogLink link, String sink, String tenant, Align align, Function<String, String> pathOfKey) {
        this(link, sink, tenant, align, pathOfKey, TableHistory.throughFlink(pathOfKey), TableHistory.WINDOWS_PER_COMMIT,
                TableHistory.FILES_PER_COMMIT);
    }

    /** With the lake read by {@code lake} and a backfill's runs bounded as given (tests). */
    QueueTables(CatalogLink link, String sink, String tenant, Align align, Function<String, String> pathOfKey,
            TableHistory.LakeReader lake, int windowsPerCommit, int filesPerCommit) {
        this.link = link;
        this.sink = sink;
        this.tenant = tenant;
        this.align = align;
        this.pathOfKey = pathOfKey;
        this.maintenance = new TableMaintenance(link.upkeep(), System::currentTimeMillis);
        this.history = new TableHistory(lake, link.backfillWindows(), windowsPerCommit, filesPerCommit);
        this.outages = new CatalogOutages(link.describe(), System::nanoTime);
    }

    /**
     * Appends the committed window to its queue's table unless the table holds it already; first
     * the committed windows the table lacks below it, from their manifests ({@link TableHistory}).
     *
     * @param manifestKey the window's manifest: the lake's other manifests are its neighbours
     * @return whether this call appended it
     * @throws TableRefusedException when no retry can append it (changed columns or partitioning,
     *     refused credentials, a committed window's manifest absent from the lake)
     * @throws CatalogUnavailableException when the catalog or its storage failed, to retry. Queues
     *     append at once (each table is one queue's, committed by one thread at a time).
     */
    @Override
    public boolean append(Manifest window, String manifestKey) throws CatalogUnavailableException {
        String table = link.tableOf(window.queue()).toString();
        try {
            boolean appended = appendOnce(window, manifestKey, table);
            outages.answered(window.queue(), table);
            return appended;
        } catch (CatalogUnavailableException e) {
            outages.failed(window.queue(), table, e);
            throw e;
        }
    }

    private boolean appendOnce(Manifest window, String manifestKey, String table) throws CatalogUnavailableException {
        WindowAppend.Outcome outcome;
        String queue = window.queue();
        Table t;
        try {
            t = table(queue);
            history.fill(t, sink, window, manifestKey, pathOfKey, () -> maintenance.afterAppend(table, t,
                    () -> loadForMaintenance(queue)));
            outcome = WindowAppend.append(t, sink, window, manifestKey, pathOfKey);
        } catch (IOException e) {
            forget(queue);
            throw new CatalogUnavailableException("could not read the lake's manifests of queue '" + queue
                    + "' to register the windows " + table + " lacks below window k=" + window.k() + ": " + e, e);
        } catch (NotAuthorizedException | ForbiddenException e) {
            throw refusedCredentials(e);
        } catch (TableRefusedException e) {
            throw e;
        } catch (RuntimeException e) {
            // Forget the table: the next attempt loads it again, also after a catalog restart.
            forget(window.queue());
            throw new CatalogUnavailableException("the " + link.describe() + " could not append window k=" + window.k()
                    + " of queue '" + window.queue() + "' to " + table + ": " + e, e);
        }
        if (outcome == WindowAppend.Outcome.APPENDED) {
            maintenance.afterAppend(table, t, () -> loadForMaintenance(queue));
            LOG.info("window appended to Iceberg table {} queue={} k={} files={}", table, window.queue(),
                    window.k(), window.objects().size());
        } else {
            LOG.info("window already in Iceberg table {} queue={} k={}", table, window.queue(), window.k());
        }
        return outcome == WindowAppend.Outcome.APPENDED;
    }

    /** Whether the queue's appends are failing now (its outage's WARN was logged). */
    public boolean catalogFailing(String queue) {
        return outages.failing(queue);
    }

    /** The highest window of the queue the table holds, 0 for none (for metrics and verify). */
    public long lastAppended(String queue) {
        Table table = table(queue);
        table.refresh();
        return WindowAppend.lastAppended(table, sink, queue);
    }

    /** The queue's table loaded afresh for the maintenance thread (never the committer's instance). */
    private Table loadForMaintenance(String queue) {
        return catalog().loadTable(link.tableOf(queue));
    }

    /**
     * Expiries run, snapshots expired, metadata files deleted, paths refused, failures, orphan
     * removals run and orphans deleted, for tests, logs and the benchmark.
     */
    long[] maintenanceCounts() {
        return new long[] {maintenance.expiries.get(), maintenance.snapshotsExpired.get(),
            maintenance.filesDeleted.get(), maintenance.filesRefused.get(), maintenance.failures.get(),
            maintenance.orphanSweeps.get(), maintenance.orphansDeleted.get()};
    }

    private synchronized void forget(String queue) {
        tables.remove(queue);
    }

    private synchronized Table table(String queue) {
        Table known = tables.get(queue);
        if (known != null) {
            return known;
        }
        try {
            Table table = loadOrCreate(queue);
            if (upkept.add(queue)) {
                applyUpkeep(table);
            }
            tables.put(queue, table);
            return table;
        } catch (NotAuthorizedException | ForbiddenException e) {
            throw refusedCredentials(e);
        }
    }

    /**
     * Sets the upkeep's table properties where the table's differ (a table made by an older job, or
     * settings changed). A failure only costs this run the bounded metadata: it is logged, and the
     * window is appended all the same.
     */
    private void applyUpkeep(Table table) {
        Map<String, String> wanted = link.upkeep().tableProperties();
        Map<String, String> differing = new HashMap<>();
        wanted.forEach((k, v) -> {
            if (!v.equals(table.properties().get(k))) {
                differing.put(k, v);
            }
        });
        if (differing.isEmpty()) {
            return;
        }
        try {
            var update = table.updateProperties();
            differing.forEach(update::set);
            update.commit();
            LOG.info("Iceberg table {}: upkeep properties set {}", table.name(), differing);
        } catch (NotAuthorizedException | ForbiddenException e) {
            throw e;
        } catch (RuntimeException e) {
            LOG.warn("Iceberg table {}: its upkeep properties {} could not be set ({}); appending all the same",
                    table.name(), differing, e.toString());
        }
    }

    private Table loadOrCreate(String queue) {
        Catalog c = catalog();
        Optional<Table> existing = link.existingTable(c, queue);
        if (existing.isPresent()) {
            return existing.get();
        }
        TableIdentifier id = link.tableOf(queue);
        Namespace ns = link.icebergNamespace();
        if (c instanceof SupportsNamespaces namespaces && !namespaces.namespaceExists(ns)) {
            try {
                // A mutable map: Iceberg's REST request builder asks it for a null key, which Map.of() refuses.
                namespaces.createNamespace(ns, new HashMap<>());
            } catch (AlreadyExistsException raced) {
                // another subtask or job created it meanwhile
            }
        }
        try {
            Table table = c.buildTable(id, LakeTableLayout.SCHEMA)
                    .withPartitionSpec(LakeTableLayout.spec(align))
                    .withSortOrder(LakeTableLayout.sortOrder())
                    .withProperties(LakeTableLayout.properties(queue, tenant, sink))
                    .withProperties(link.upkeep().tableProperties())
                    .create();
            LOG.info("created Iceberg table {} for queue '{}' in the {}", id, queue, link.describe());
            return table;
        } catch (AlreadyExistsException raced) {
            return c.loadTable(id);
        }
    }

    private synchronized Catalog catalog() {
        if (catalog == null) {
            catalog = link.open();
        }
        return catalog;
    }

    private TableRefusedException refusedCredentials(RuntimeException e) {
        return new TableRefusedException("the " + link.describe() + " refused this job's credentials (" + e.getMessage()
                + "): check QUEEN_LAKE_ICEBERG_TOKEN, QUEEN_LAKE_ICEBERG_CREDENTIAL or QUEEN_LAKE_ICEBERG_USER and"
                + " QUEEN_LAKE_ICEBERG_PASSWORD, and the catalog's grants on namespace " + link.namespace(), e);
    }

    @Override
    public synchronized void close() throws IOException {
        maintenance.close();
        history.close();
        if (catalog instanceof java.io.Closeable closeable) {
            closeable.close();
        }
        catalog = null;
        tables.clear();
    }
}
