package io.queenlake.job.cli;

import io.queenlake.devstack.s3.EmbeddedS3;
import io.queenlake.devstack.s3.EmbeddedS3Options;
import java.nio.file.Path;
import java.util.Set;

/** {@code ./queen-lake dev-s3}: the embedded S3 server alone, until stopped. */
final class DevS3Command implements Subcommand {

    @Override
    public String summary() {
        return "run the embedded S3 server: --port 9000 --dir DIR --access-key K --secret-key S --bucket B";
    }

    @Override
    public int run(String[] args) throws Exception {
        CommandArgs a = CommandArgs.parse(
                "dev-s3", args, Set.of("port", "dir", "access-key", "secret-key", "bucket"), Set.of());
        EmbeddedS3 s3 = EmbeddedS3.start(EmbeddedS3Options.builder()
                .port(a.intValue("port", 9000, 0, 65535))
                .dir(Path.of(a.required("dir")))
                .accessKey(a.required("access-key"))
                .secretKey(a.required("secret-key"))
                .bucket(a.required("bucket"))
                .build());
        System.out.println("S3 server listening on " + s3.endpoint() + " (path-style, SigV4, region "
                + EmbeddedS3.REGION + "), bucket '" + s3.bucket() + "' in " + s3.bucketDir().toAbsolutePath()
                + "; Ctrl-C to stop");
        UntilStopped.await(s3, "S3 server");
        return 0;
    }
}
