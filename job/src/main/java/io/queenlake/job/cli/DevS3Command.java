package io.queenlake.job.cli;

import io.queenlake.devstack.s3.EmbeddedS3;
import io.queenlake.devstack.s3.EmbeddedS3Options;
import java.nio.file.Path;
import java.util.List;

/** {@code ./queen-lake dev-s3}: the embedded S3 server alone, until stopped. */
final class DevS3Command implements Subcommand {

    private static final List<CliOption> OPTIONS = List.of(
            CliOption.option("port", "P", "the port; 0 picks a free one").byDefault(9000),
            CliOption.required("dir", "DIR", "the folder the buckets live in"),
            CliOption.required("access-key", "K", "the access key id clients sign with"),
            CliOption.required("secret-key", "S", "its secret"),
            CliOption.required("bucket", "B", "the bucket to create (a folder of DIR)"),
            CliOption.option("latency-ms", "N", "every object request waits N ms before it is served, as a real"
                    + " S3's 20-50 ms round trip; 0 for none").byDefault(0));

    private static final Help HELP = new Help(
            "run the embedded S3 server (path-style, SigV4, its buckets in a local folder) alone, until Ctrl-C", OPTIONS);

    @Override
    public Help help() {
        return HELP;
    }

    @Override
    public int run(String[] args) throws Exception {
        CommandArgs a = CommandArgs.parse("dev-s3", args, OPTIONS);
        long latencyMs = a.longValue("latency-ms", 0, 60_000);
        EmbeddedS3 s3 = EmbeddedS3.start(EmbeddedS3Options.builder()
                .port(a.intValue("port", 0, 65535))
                .dir(Path.of(a.required("dir")))
                .accessKey(a.required("access-key"))
                .secretKey(a.required("secret-key"))
                .bucket(a.required("bucket"))
                .latencyMs(latencyMs)
                .build());
        System.out.println("S3 server listening on " + s3.endpoint() + " (path-style, SigV4, region "
                + EmbeddedS3.REGION + "), bucket '" + s3.bucket() + "' in " + s3.bucketDir().toAbsolutePath()
                + (latencyMs == 0 ? "" : " (" + latencyMs + " ms a request)") + "; Ctrl-C to stop");
        UntilStopped.await(s3, "S3 server");
        return 0;
    }
}
