package io.queenlake.iceberg;

import io.queenlake.format.object.Format;
import io.queenlake.connector.sink.table.WindowTables;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.exceptions.NoSuchTableException;

/**
 * How the committer reaches the Iceberg catalog, shipped with the job graph: the catalog's type
 * and properties (URI, warehouse, credentials, and the file IO the client writes Iceberg's own
 * manifests with: the lake's endpoint, region, path style and keys), the namespace of the
 * tables, how the job keeps them small ({@link TableUpkeep}), and how many of the lake's
 * committed windows a table the job creates gets before its first append ({@code backfillWindows},
 * {@link TableHistory}). Secrets never appear in {@link #toString()}.
 */
public record CatalogLink(String type, Map<String, String> properties, String namespace, TableUpkeep upkeep,
        long backfillWindows) implements WindowTables.Factory {

    private static final long serialVersionUID = 1L;
    /**
     * The catalog's name. A JDBC catalog keys its tables by it ({@code catalog_name}): an engine
     * reading the same database must use this name (Trino's {@code iceberg.jdbc-catalog.catalog-name},
     * Spark's {@code spark.sql.catalog.queen_lake}); a REST catalog ignores it.
     */
    public static final String NAME = "queen_lake";
    /** Catalog properties that hold secrets. */
    private static final java.util.Set<String> SECRETS = java.util.Set.of("token", "credential", "jdbc.password",
            "s3.secret-access-key");

    /** {@code backfillWindows}: a new table gets every committed window of the lake. */
    public static final long ALL_WINDOWS = Long.MAX_VALUE;

    public CatalogLink {
        Objects.requireNonNull(type, "type");
        properties = Map.copyOf(properties);
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(upkeep, "upkeep");
        if (backfillWindows < 0) {
            throw new IllegalArgumentException("backfillWindows must be 0 or more, or ALL_WINDOWS: " + backfillWindows);
        }
    }

    /**
     * A link whose tables are kept with the default upkeep ({@link TableUpkeep#DEFAULTS}) and get
     * the lake's whole history.
     */
    public CatalogLink(String type, Map<String, String> properties, String namespace) {
        this(type, properties, namespace, TableUpkeep.DEFAULTS, ALL_WINDOWS);
    }

    /** This link with another upkeep of its tables. */
    public CatalogLink withUpkeep(TableUpkeep upkeep) {
        return new CatalogLink(type, properties, namespace, upkeep, backfillWindows);
    }

    /** This link with {@code QUEEN_LAKE_ICEBERG_BACKFILL_WINDOWS}: {@code all}, or a number of windows. */
    public CatalogLink withBackfillWindows(String setting) {
        long windows = setting == null || setting.strip().equalsIgnoreCase("all") ? ALL_WINDOWS
                : Long.parseLong(setting.strip());
        return new CatalogLink(type, properties, namespace, upkeep, windows);
    }

    /**
     * An Iceberg REST catalog (Polaris, Nessie, Lakekeeper, Gravitino, Glue's or S3 Tables' REST
     * endpoints, or {@code ./queen-lake dev-catalog}).
     *
     * @param warehouse null for the catalog's default
     * @param token a bearer token, or null
     * @param credential OAuth2 {@code client_id:client_secret}, or null
     * @param fileIo the file IO's properties ({@link #lakeFileIo})
     */
    public static CatalogLink rest(String uri, String warehouse, String namespace, String token, String credential,
            Map<String, String> fileIo) {
        Map<String, String> p = new LinkedHashMap<>(fileIo);
        p.put("uri", uri);
        putIfSet(p, "warehouse", warehouse);
        putIfSet(p, "token", token);
        putIfSet(p, "credential", credential);
        return new CatalogLink("rest", p, namespace);
    }

    /** A JDBC catalog (PostgreSQL, SQLite) whose metadata goes under {@code warehouse}. */
    public static CatalogLink jdbc(String uri, String warehouse, String namespace, String user, String password,
            Map<String, String> fileIo) {
        Map<String, String> p = new LinkedHashMap<>(fileIo);
        p.put("uri", uri);
        p.put("warehouse", warehouse);
        // The current schema of Iceberg's JDBC tables (with views), not the legacy one it warns about.
        p.put("jdbc.schema-version", "V1");
        putIfSet(p, "jdbc.user", user);
        putIfSet(p, "jdbc.password", password);
        return new CatalogLink("jdbc", p, namespace);
    }

    /**
     * The client's file IO for the lake's bucket (Iceberg writes its manifests and reads the data
     * files through it): S3FileIO on the lake's endpoint, or Hadoop's for a local folder.
     *
     * @param endpoint the S3 endpoint, null for AWS in {@code region} (or a local folder)
     * @param accessKey null for the AWS SDK's default credential chain
     */
    public static Map<String, String> lakeFileIo(String endpoint, String region, boolean pathStyle, String accessKey,
            String secretKey) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("io-impl", "org.apache.iceberg.io.ResolvingFileIO");
        // The JDK's HTTP client: the job ships no Apache HTTP client for the AWS SDK.
        p.put("http-client.type", "urlconnection");
        putIfSet(p, "s3.endpoint", endpoint);
        putIfSet(p, "client.region", region);
        p.put("s3.path-style-access", Boolean.toString(pathStyle));
        putIfSet(p, "s3.access-key-id", accessKey);
        putIfSet(p, "s3.secret-access-key", secretKey);
        return p;
    }

    private static void putIfSet(Map<String, String> p, String key, String value) {
        if (value != null && !value.isBlank()) {
            p.put(key, value);
        }
    }

    /** The committer's side of the catalog: each queue's table, appended to after a window's manifest. */
    @Override
    public WindowTables open(WindowTables.Lake lake) {
        return new QueueTables(this, lake.sink(), lake.tenant(), lake.align(), lake.pathOfKey());
    }

    /** A table registers the lake's objects as its data files, so it holds Parquet objects only. */
    @Override
    public Optional<String> problemWith(Format format) {
        return format instanceof Format.Parquet ? Optional.empty()
                : Optional.of("an Iceberg catalog registers the lake's Parquet objects as its data files,"
                        + " so it needs QUEEN_S3_FORMAT=parquet, not " + format.name()
                        + ": set QUEEN_S3_FORMAT=parquet, or QUEEN_LAKE_ICEBERG_CATALOG=none.");
    }

    /** A new client of the catalog, named {@link #NAME}; the caller closes it. */
    public Catalog open() {
        return open(NAME, properties);
    }

    /**
     * A client that only reads, for {@code ./queen-lake status}: a JDBC catalog neither creates
     * its tables in the database nor upgrades their schema, and a REST catalog that does not answer
     * gives up after 5 s instead of the client's defaults.
     */
    public Catalog openForReading() {
        Map<String, String> p = new LinkedHashMap<>(properties);
        if (type.equals("jdbc")) {
            p.put("jdbc.init-catalog-tables", "false");
            p.remove("jdbc.schema-version");
        } else {
            p.put("rest.client.connection-timeout-ms", "5000");
            p.put("rest.client.socket-timeout-ms", "5000");
        }
        return open(NAME, p);
    }

    private Catalog open(String name, Map<String, String> properties) {
        Map<String, String> p = new LinkedHashMap<>(properties);
        p.put(CatalogUtil.ICEBERG_CATALOG_TYPE, type);
        return CatalogUtil.buildIcebergCatalog(name, p, hadoopConfIfPresent());
    }

    /**
     * Hadoop's configuration for a file:// warehouse (HadoopFileIO), where Hadoop is on the class
     * path (the launcher, the tests); the `flink run` jar leaves Hadoop out, and S3FileIO needs none.
     */
    private static Object hadoopConfIfPresent() {
        try {
            return Class.forName("org.apache.hadoop.conf.Configuration").getConstructor(boolean.class).newInstance(false);
        } catch (ReflectiveOperationException | LinkageError absent) {
            return null;
        }
    }

    /** How the job names {@code queue}'s table in this catalog. */
    public TableIdentifier tableOf(String queue) {
        return TableIdentifier.of(icebergNamespace(), QueueTableName.of(queue));
    }

    /**
     * {@code queue}'s table, empty while the catalog has neither it nor its namespace (a REST
     * catalog tells the two apart, a JDBC one answers both as a missing table).
     */
    public Optional<Table> existingTable(Catalog catalog, String queue) {
        try {
            return Optional.of(catalog.loadTable(tableOf(queue)));
        } catch (NoSuchTableException | NoSuchNamespaceException missing) {
            return Optional.empty();
        }
    }

    public Namespace icebergNamespace() {
        return Namespace.of(namespace.split("\\."));
    }

    /** The catalog's address, for messages: without a password in its user info or query. */
    public String describe() {
        return type + " catalog " + masked(properties.getOrDefault("uri", "?"));
    }

    private static String masked(String uri) {
        return uri.replaceAll("(?i)(password=)[^&;]*", "$1***").replaceAll("//([^/@:]*):[^/@]*@", "//$1:***@");
    }

    @Override
    public String toString() {
        Map<String, String> shown = new LinkedHashMap<>();
        properties.forEach((k, v) -> shown.put(k, SECRETS.contains(k) ? "***" : k.equals("uri") ? masked(v) : v));
        return "CatalogLink[" + type + ", " + shown + ", namespace " + namespace + ", " + upkeep + ", backfill "
                + (backfillWindows == ALL_WINDOWS ? "all" : Long.toString(backfillWindows)) + " windows]";
    }
}
