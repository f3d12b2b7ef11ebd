package io.queenlake.devstack.s3;

import static io.queenlake.devstack.s3.TestBytes.MIB;
import static io.queenlake.devstack.s3.TestBytes.random;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/** What clients write to {@link EmbeddedS3} is a Hive-partitioned folder DuckDB reads in place. */
class BucketFolderReadByDuckDbTest {

    private static final String TENANT = "tenant=00000000-0000-0000-0000-000000000001";

    @TempDir
    Path dir;

    @Test
    void duckDbReadsTheObjectsOfTheBucketFolderWithTheirPartitionsAndNothingElse() throws Exception {
        try (EmbeddedS3 s3 = EmbeddedS3.start(EmbeddedS3Options.builder().dir(dir).build());
                S3Client client = SdkClients.of(s3)) {
            put(client, s3, "queen/" + TENANT + "/queue=orders/dt=2026-10-03/hour=06/w-0000000001.jsonl.gz", 3);
            put(client, s3, "queen/" + TENANT + "/queue=orders/dt=2026-10-03/hour=07/w-0000000002.jsonl.gz", 2);
            put(client, s3, "queen/" + TENANT + "/queue=caff%C3%A8/dt=2026-10-03/hour=06/w-0000000001.jsonl.gz", 4);
            // A staged, never completed window must not be read.
            String staged = "queen/" + TENANT + "/queue=orders/dt=2026-10-03/hour=08/w-0000000003.jsonl.gz";
            String uploadId = client.createMultipartUpload(b -> b.bucket(s3.bucket()).key(staged)).uploadId();
            client.uploadPart(b -> b.bucket(s3.bucket()).key(staged).uploadId(uploadId).partNumber(1),
                    RequestBody.fromBytes(random(40, 5 * MIB)));

            String glob = s3.bucketDir().resolve("queen").toString() + "/**/*.jsonl.gz";
            List<String> rows = query("SELECT queue, hour, count(*) AS n FROM read_json_auto('" + glob
                    + "', hive_partitioning = true, hive_types_autocast = false) GROUP BY ALL ORDER BY ALL");

            // The folder keeps the escaped name; DuckDB percent-decodes Hive partition values.
            assertThat(s3.bucketDir().resolve("queen/" + TENANT + "/queue=caff%C3%A8")).isDirectory();
            assertThat(rows).containsExactly("caffè 06 4", "orders 06 3", "orders 07 2");
        }
    }

    private static void put(S3Client client, EmbeddedS3 s3, String key, int lines) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream gzip = new GZIPOutputStream(bytes)) {
            for (int i = 0; i < lines; i++) {
                gzip.write(("{\"offset\":" + i + ",\"payload\":\"p" + i + "\"}\n").getBytes(StandardCharsets.UTF_8));
            }
        }
        client.putObject(b -> b.bucket(s3.bucket()).key(key), RequestBody.fromBytes(bytes.toByteArray()));
    }

    private static List<String> query(String sql) throws Exception {
        List<String> rows = new ArrayList<>();
        try (Connection db = DriverManager.getConnection("jdbc:duckdb:");
                Statement statement = db.createStatement();
                ResultSet result = statement.executeQuery(sql)) {
            while (result.next()) {
                rows.add(result.getString(1) + " " + result.getString(2) + " " + result.getLong(3));
            }
        }
        return rows;
    }
}
