package io.queenlake.devstack.catalog;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import org.apache.iceberg.jdbc.JdbcClientPool;

/**
 * Iceberg's JDBC connection pool for the dev catalog's SQLite file, except that what the catalog
 * runs while it initializes gets a connection of its own, closed once the catalog is initialized.
 *
 * <p>Why (issue 27, item 4): {@code JdbcCatalog.initialize} checks its tables and columns through
 * {@code DatabaseMetaData} and never closes those result sets. On a database that already holds the
 * tables (any restart on the same folder) the cursor stays open on one pooled connection, and with
 * it a read of SQLite's file: every write from the pool's other connection then waits out SQLite's
 * busy timeout and fails ({@code SQLITE_BUSY}, which the REST server answers {@code 500 Unknown
 * failure}, a client's {@code CommitStateUnknownException}), while the writes of the connection
 * holding the cursor never commit (SQLite commits an implicit transaction only once the
 * connection's last statement is done) and leave {@code catalog.db-journal} behind. A second client
 * committing at the same time as the first is all it takes to put that other connection in use.
 * Closing the connection ends the cursors; every query the catalog runs later closes its own.
 */
final class CatalogConnections extends JdbcClientPool {

    private volatile boolean initializing = true;
    /** The connection of the catalog's start; null until its first statement and after {@link #initialized()}. */
    private Connection setup;

    CatalogConnections(String jdbcUrl, Map<String, String> properties) {
        super(jdbcUrl, properties);
    }

    @Override
    public <R> R run(Action<R, Connection, SQLException> action) throws SQLException, InterruptedException {
        if (!initializing) {
            return super.run(action);
        }
        synchronized (this) {
            if (setup == null) {
                setup = newClient();
            }
            return action.run(setup);
        }
    }

    @Override
    public <R> R run(Action<R, Connection, SQLException> action, boolean retry)
            throws SQLException, InterruptedException {
        return initializing ? run(action) : super.run(action, retry);
    }

    /**
     * The catalog is initialized: from now on every statement runs on the pool's connections. The
     * pool opens its first one before the start's is closed, since an in-memory database lives only
     * while a connection to it is open.
     */
    void initialized() throws SQLException, InterruptedException {
        initializing = false;
        super.run(connection -> null);
        synchronized (this) {
            if (setup != null) {
                setup.close();
                setup = null;
            }
        }
    }
}
