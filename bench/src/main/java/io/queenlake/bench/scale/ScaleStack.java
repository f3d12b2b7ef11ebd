package io.queenlake.bench.scale;

import io.queenlake.broker.client.HttpQueenClient;
import io.queenlake.broker.client.QueenClient;
import io.queenlake.devstack.broker.DevBroker;
import io.queenlake.devstack.broker.DevBrokerOptions;
import io.queenlake.devstack.s3.EmbeddedS3;
import io.queenlake.devstack.s3.EmbeddedS3Options;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The dev broker (in memory) and the embedded S3 server of one run, both in this JVM, so that
 * their own counters can be read: the S3 server's requests by operation and the broker's KV write
 * calls refused as over its budget (429). With the latencies and the KV write budget the options
 * give, as {@code dev-s3 --latency-ms} and {@code dev-broker --kv-latency-ms --kv-write-rate} start them.
 */
record ScaleStack(DevBroker broker, EmbeddedS3 s3, QueenClient client) implements AutoCloseable {

    static final String BUCKET = "scale";

    static ScaleStack start(Path dir, ScaleOptions options) throws IOException {
        EmbeddedS3 s3 = EmbeddedS3.start(EmbeddedS3Options.builder().dir(dir.resolve("s3")).bucket(BUCKET)
                .latencyMs(options.s3LatencyMs()).build());
        try {
            DevBroker broker = DevBroker.start(DevBrokerOptions.builder()
                    .kvLatencyMs(options.kvLatencyMs()).kvWriteRate(options.kvWriteRate()).build());
            QueenClient client = HttpQueenClient.builder().baseUrl(broker.url().toString())
                    .requestTimeout(Duration.ofSeconds(60)).build();
            return new ScaleStack(broker, s3, client);
        } catch (IOException | RuntimeException e) {
            s3.close();
            throw e;
        }
    }

    /** The job arguments of {@code ./queen-lake run} that point the job at this broker and bucket. */
    List<String> jobArgs() {
        return List.of("--queen-url", broker.url().toString(),
                "--endpoint", s3.endpoint().toString(),
                "--region", EmbeddedS3.REGION,
                "--bucket", BUCKET,
                "--access-key", s3.accessKey(),
                "--secret-key", s3.secretKey(),
                "--path-style", "true");
    }

    Map<String, Long> s3Requests() {
        return s3.requests();
    }

    static long total(Map<String, Long> requests) {
        return requests.values().stream().mapToLong(Long::longValue).sum();
    }

    @Override
    public void close() {
        try {
            broker.close();
        } finally {
            s3.close();
        }
    }
}
