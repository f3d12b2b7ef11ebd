package io.queenlake.devstack.catalog;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.aws.AwsClientProperties;
import org.apache.iceberg.aws.HttpClientProperties;
import org.apache.iceberg.aws.s3.S3FileIO;
import org.apache.iceberg.aws.s3.S3FileIOProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.jdbc.JdbcCatalog;
import org.apache.iceberg.rest.HTTPRequest;
import org.apache.iceberg.rest.RESTCatalogAdapter;
import org.apache.iceberg.rest.RESTCatalogServlet;
import org.apache.iceberg.rest.RESTResponse;
import org.apache.iceberg.rest.responses.ErrorResponse;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An Apache Iceberg REST catalog on 127.0.0.1 for the demo and the tests: Iceberg's own
 * {@link RESTCatalogAdapter} and {@link RESTCatalogServlet} (what its {@code RESTCatalogServer}
 * serves) in-process on Jetty, over a {@link JdbcCatalog} on SQLite, with the warehouse on S3
 * through {@link S3FileIO}, path-style.
 *
 * <p>Iceberg's {@code RESTCatalogServer} itself is not used: its constructors are package-private,
 * it binds every interface, and it is compiled against Jetty 11, while S3Proxy brings Jetty 12.
 *
 * <p>The catalog (namespaces, table names, the pointer to each table's current metadata file) is
 * the SQLite file {@code dataDir/catalog.db}, so a restart on the same folder keeps every table;
 * the tables themselves (metadata, manifests, data files) are objects in the bucket. Its connections
 * are {@link CatalogConnections}: Iceberg's pool, without the cursors the JDBC catalog's start
 * leaves open, which made a restarted catalog answer every commit of a second client with a 500.
 */
public final class DevCatalog implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(DevCatalog.class);

    private static final String HOST = "127.0.0.1";
    /** The region every S3 client signs with: the embedded S3 server is path-style, so it names no host. */
    static final String REGION = "us-east-1";
    /** A handful of threads is plenty for a dev catalog on two cores; Jetty's default is 200. */
    private static final int JETTY_MAX_THREADS = 16;
    /**
     * The paths the REST spec sends: a nested namespace is its levels joined by {@code %1F} (Spark
     * asks for {@code queen%1Forders/tables/snapshots} before it falls back to the metadata table of
     * {@code queen.orders}), and a name may hold an encoded {@code /} or {@code %}. Jetty 12's default
     * refuses all three with a 400 HTML page, so an engine never sees the 404 it falls back on; Iceberg's
     * own server runs on Jetty 11, whose rules (Jetty 12's {@code JETTY_11} mode) let all three by. The
     * servlet reads the raw path and decodes each segment itself, so Jetty only has to let them by.
     */
    static final UriCompliance REST_PATHS = UriCompliance.DEFAULT.with("iceberg-rest",
            UriCompliance.Violation.SUSPICIOUS_PATH_CHARACTERS,
            UriCompliance.Violation.AMBIGUOUS_PATH_SEPARATOR,
            UriCompliance.Violation.AMBIGUOUS_PATH_ENCODING);

    private final DevCatalogOptions options;
    private final JdbcCatalog catalog;
    private final Server server;
    private final URI url;

    private DevCatalog(DevCatalogOptions options, JdbcCatalog catalog, Server server, int port) {
        this.options = options;
        this.catalog = catalog;
        this.server = server;
        this.url = URI.create("http://" + HOST + ":" + port);
    }

    /** Opens (or creates) the catalog and serves it; returns once the port accepts. */
    public static DevCatalog start(DevCatalogOptions options) {
        Map<String, String> backend = backendProperties(options);
        CatalogConnections connections = new CatalogConnections(backend.get(CatalogProperties.URI), backend);
        JdbcCatalog catalog = new JdbcCatalog(null, properties -> connections, true);
        catalog.initialize("dev", backend);
        try {
            connections.initialized();
        } catch (SQLException | InterruptedException e) {
            closeQuietly(catalog);
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw new IllegalStateException("The dev Iceberg catalog's database " + backend.get(CatalogProperties.URI)
                    + " could not be opened: " + e.getMessage() + "; check the folder given as --data-dir.", e);
        }
        Server server = new Server(new QueuedThreadPool(JETTY_MAX_THREADS, 2));
        // No graceful stop: a stop should look like an outage, as the embedded S3 server's does.
        server.setStopTimeout(0);
        HttpConfiguration http = new HttpConfiguration();
        http.setUriCompliance(REST_PATHS);
        ServerConnector connector = new ServerConnector(server, new HttpConnectionFactory(http));
        connector.setHost(HOST);
        connector.setPort(options.port());
        server.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler(ServletContextHandler.NO_SESSIONS);
        context.addServlet(new ServletHolder(new RESTCatalogServlet(new LoggingAdapter(catalog))), "/*");
        server.setHandler(context);
        try {
            server.start();
        } catch (Exception e) {
            stopQuietly(server);
            closeQuietly(catalog);
            throw new IllegalStateException("The dev Iceberg catalog could not listen on " + HOST + ":" + options.port()
                    + " (is the port taken?): pass port 0 or a free port.", e);
        }
        DevCatalog started = new DevCatalog(options, catalog, server, connector.getLocalPort());
        LOG.info("Iceberg REST catalog listening on {} (warehouse {} on {}, catalog {})", started.url,
                options.warehouse(), options.s3Endpoint(), options.dataDir() == null ? "in memory" : options.dataDir());
        return started;
    }

    /** The catalog's base URI, {@code http://127.0.0.1:<port>}: a REST client's {@code uri} property. */
    public URI url() {
        return url;
    }

    /** Where new tables go: {@code s3://<bucket>/iceberg} unless the options said otherwise. */
    public String warehouse() {
        return options.warehouse();
    }

    /**
     * What an Iceberg {@code RESTCatalog} client needs to use this catalog and read and write its
     * tables' files: {@code uri}, and the S3FileIO properties (endpoint, path-style, key pair,
     * region, the JDK's HTTP client). The catalog hands out no credentials, so the client brings them.
     */
    public Map<String, String> clientProperties() {
        Map<String, String> properties = fileIoProperties(options);
        properties.put(CatalogProperties.URI, url.toString());
        return properties;
    }

    /** Stops serving and closes the database; the tables stay in the data folder and the bucket. */
    @Override
    public void close() {
        try {
            server.stop();
        } catch (Exception e) {
            throw new IllegalStateException("The dev Iceberg catalog on " + url + " did not stop cleanly.", e);
        } finally {
            closeQuietly(catalog);
        }
    }

    private static Map<String, String> backendProperties(DevCatalogOptions options) {
        Map<String, String> properties = fileIoProperties(options);
        properties.put(CatalogProperties.URI, jdbcUrl(options));
        properties.put(CatalogProperties.WAREHOUSE_LOCATION, options.warehouse());
        properties.put(CatalogProperties.FILE_IO_IMPL, S3FileIO.class.getName());
        // V1 adds views to the schema; Iceberg's own REST server asks for it too.
        properties.put(JdbcCatalog.PROPERTY_PREFIX + "schema-version", "V1");
        return properties;
    }

    private static Map<String, String> fileIoProperties(DevCatalogOptions options) {
        Map<String, String> properties = new HashMap<>();
        properties.put(S3FileIOProperties.ENDPOINT, options.s3Endpoint().toString());
        properties.put(S3FileIOProperties.PATH_STYLE_ACCESS, "true");
        properties.put(S3FileIOProperties.ACCESS_KEY_ID, options.accessKey());
        properties.put(S3FileIOProperties.SECRET_ACCESS_KEY, options.secretKey());
        properties.put(AwsClientProperties.CLIENT_REGION, REGION);
        // Iceberg's default is the Apache HTTP client, which the project does not ship; the JDK's will do.
        properties.put(HttpClientProperties.CLIENT_TYPE, HttpClientProperties.CLIENT_TYPE_URLCONNECTION);
        return properties;
    }

    private static String jdbcUrl(DevCatalogOptions options) {
        if (options.dataDir() == null) {
            // Shared cache: the catalog's pool holds several connections, and each must see the same database.
            return "jdbc:sqlite:file:dev-catalog-" + UUID.randomUUID() + "?mode=memory&cache=shared";
        }
        try {
            Files.createDirectories(options.dataDir());
        } catch (IOException e) {
            throw new UncheckedIOException("The dev Iceberg catalog folder " + options.dataDir()
                    + " cannot be created: choose a writable folder.", e);
        }
        return "jdbc:sqlite:" + options.dataDir().resolve("catalog.db");
    }

    /**
     * Iceberg's adapter, which also logs every answer of 500 or more with its cause. The adapter turns
     * a failure of the catalog behind it (a SQLite error is "Unknown failure") into an ErrorResponse
     * the client sees, and the servlet logs nothing of it; a client's {@code CommitStateUnknownException}
     * then had no trace on the catalog's side.
     */
    private static final class LoggingAdapter extends RESTCatalogAdapter {

        LoggingAdapter(Catalog catalog) {
            super(catalog);
        }

        @Override
        protected <T extends RESTResponse> T execute(HTTPRequest request, Class<T> responseType,
                Consumer<ErrorResponse> errorHandler, Consumer<Map<String, String>> responseHeaders) {
            Consumer<ErrorResponse> logged = error -> {
                if (error.code() != null && error.code() >= 500) {
                    LOG.warn("The dev Iceberg catalog answered {} {} with {} {}: {}{}", request.method(), request.path(),
                            error.code(), error.type(), error.message(),
                            error.stack() == null ? "" : "\n\t" + String.join("\n\t", error.stack()));
                }
                errorHandler.accept(error);
            };
            return super.execute(request, responseType, logged, responseHeaders);
        }
    }

    /** Releases the threads of a server that failed to start; its own failure is the one to report. */
    private static void stopQuietly(Server failed) {
        try {
            failed.stop();
        } catch (Exception ignored) {
            // The start failure already explains what went wrong.
        }
    }

    private static void closeQuietly(JdbcCatalog catalog) {
        try {
            catalog.close();
        } catch (RuntimeException e) {
            LOG.warn("The dev Iceberg catalog's database did not close cleanly", e);
        }
    }
}
