package io.queenlake.devstack.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/** {@code dev-s3 --latency-ms}: every object request takes at least the latency, as a real bucket's round trip. */
class EmbeddedS3LatencyTest {

    private static final long LATENCY_MS = 50;

    @TempDir
    Path dir;

    @Test
    void aPutAndAGetEachTakeAtLeastTheLatency() {
        try (EmbeddedS3 s3 = EmbeddedS3.start(EmbeddedS3Options.builder().dir(dir).latencyMs(LATENCY_MS).build());
                S3Client client = SdkClients.notRetrying(s3)) {
            // The first request pays for the connection and the SDK's warm-up; measure the second.
            client.putObject(b -> b.bucket(s3.bucket()).key("warm-up"), RequestBody.fromString("w"));

            long put = System.nanoTime();
            client.putObject(b -> b.bucket(s3.bucket()).key("slow/put.txt"), RequestBody.fromString("slow"));
            Duration putTook = Duration.ofNanos(System.nanoTime() - put);

            long get = System.nanoTime();
            String read = client.getObjectAsBytes(b -> b.bucket(s3.bucket()).key("slow/put.txt")).asUtf8String();
            Duration getTook = Duration.ofNanos(System.nanoTime() - get);

            assertThat(read).isEqualTo("slow");
            assertThat(putTook).isGreaterThanOrEqualTo(Duration.ofMillis(LATENCY_MS));
            assertThat(getTook).isGreaterThanOrEqualTo(Duration.ofMillis(LATENCY_MS));
            assertThat(s3.requests()).containsEntry("PutObject", 2L).containsEntry("GetObject", 1L);
        }
    }

    @Test
    void aNegativeLatencyIsRefusedBeforeAnySocketOpens() {
        assertThatThrownBy(() -> EmbeddedS3Options.builder().dir(dir).latencyMs(-1).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("latency -1 ms is negative");
    }

    @Test
    void theDefaultIsNoLatency() {
        assertThat(EmbeddedS3Options.builder().dir(dir).build().latencyMs()).isZero();
    }
}
