package io.queenlake.job.cli;

import io.queenlake.devstack.catalog.DevCatalog;
import io.queenlake.devstack.catalog.DevCatalogOptions;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;

/** {@code ./queen-lake dev-catalog}: the embedded Iceberg REST catalog alone, until stopped. */
final class DevCatalogCommand implements Subcommand {

    private static final List<CliOption> OPTIONS = List.of(
            CliOption.option("port", "P", "the port; 0 picks a free one").byDefault(8181),
            CliOption.required("endpoint", "URL", "the S3 server the warehouse is on, path-style (e.g. http://127.0.0.1:9000)"),
            CliOption.required("bucket", "B", "the bucket the warehouse is in"),
            CliOption.required("access-key", "K", "the access key id the catalog signs with"),
            CliOption.required("secret-key", "S", "its secret"),
            CliOption.option("warehouse", "s3://B/PREFIX", "where new tables go (default s3://B/iceberg)"),
            CliOption.option("data-dir", "DIR", "the folder that keeps the catalog across restarts (default: in memory, lost at stop)"));

    private static final Help HELP = new Help(
            "run the embedded Iceberg REST catalog (tables in SQLite, their files in an S3 bucket) alone, until Ctrl-C", OPTIONS);

    @Override
    public Help help() {
        return HELP;
    }

    @Override
    public int run(String[] args) throws Exception {
        CommandArgs a = CommandArgs.parse("dev-catalog", args, OPTIONS);
        String bucket = a.required("bucket");
        String warehouse = a.get("warehouse");
        // The catalog's S3FileIO signs with one key pair, so tables live in the one bucket it is given.
        if (warehouse != null && !warehouse.startsWith("s3://" + bucket + "/")) {
            throw new UsageException("dev-catalog: --warehouse=" + warehouse + " is not in the bucket --bucket names: write it as s3://"
                    + bucket + "/iceberg");
        }
        String dataDir = a.get("data-dir");
        DevCatalogOptions options = DevCatalogOptions.builder()
                .port(a.intValue("port", 0, 65535))
                .s3Endpoint(endpoint(a.required("endpoint")))
                .bucket(bucket)
                .accessKey(a.required("access-key"))
                .secretKey(a.required("secret-key"))
                .warehouse(warehouse)
                .dataDir(dataDir == null ? null : Path.of(dataDir))
                .build();
        DevCatalog catalog = DevCatalog.start(options);
        System.out.println("Iceberg REST catalog listening on " + catalog.url() + ", warehouse " + catalog.warehouse()
                + " on " + options.s3Endpoint() + " (path-style, region us-east-1), catalog "
                + (options.dataDir() == null ? "in memory" : "in " + options.dataDir()) + "; Ctrl-C to stop");
        UntilStopped.await(catalog, "Iceberg REST catalog");
        return 0;
    }

    private static URI endpoint(String text) {
        try {
            URI uri = new URI(text);
            if (("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) && uri.getHost() != null) {
                return uri;
            }
        } catch (URISyntaxException e) {
            // refused below, in the same words
        }
        throw new UsageException("dev-catalog: --endpoint=" + text + " is not an http(s) URL: write it as http://127.0.0.1:9000");
    }
}
