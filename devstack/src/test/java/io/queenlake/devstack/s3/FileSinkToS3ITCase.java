package io.queenlake.devstack.s3;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.apache.flink.api.common.serialization.SimpleStringEncoder;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.connector.file.sink.FileSink;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.filesystem.OutputFileConfig;
import org.apache.flink.streaming.api.functions.sink.filesystem.bucketassigners.BasePathBucketAssigner;
import org.apache.flink.streaming.api.functions.sink.filesystem.rollingpolicies.OnCheckpointRollingPolicy;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

/** A checkpointed Flink job on a MiniCluster writes to {@code s3://} on {@link EmbeddedS3} with FileSink. */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class FileSinkToS3ITCase {

    private static final long RECORDS = 50_000;

    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(
            new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(2)
                    .build());

    @TempDir
    static Path dir;

    private static EmbeddedS3 s3;
    private static S3Client sdk;

    @BeforeAll
    static void startServerAndPlugin() {
        s3 = EmbeddedS3.start(EmbeddedS3Options.builder()
                .dir(dir).accessKey("k").secretKey("s").bucket("lake").build());
        sdk = SdkClients.of(s3);
        FlinkS3Plugin.initialize(s3);
    }

    @AfterAll
    static void stopServer() {
        sdk.close();
        s3.close();
    }

    @Test
    void aCheckpointedFileSinkJobLeavesEveryRecordOnceInCommittedObjects() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        env.enableCheckpointing(100);
        env.fromSequence(1, RECORDS)
                .map(i -> "record-" + i).returns(Types.STRING)
                .sinkTo(FileSink.forRowFormat(new org.apache.flink.core.fs.Path("s3://lake/filesink"),
                                new SimpleStringEncoder<String>("UTF-8"))
                        .withBucketAssigner(new BasePathBucketAssigner<>())
                        .withRollingPolicy(OnCheckpointRollingPolicy.build())
                        .withOutputFileConfig(OutputFileConfig.builder().withPartPrefix("part").withPartSuffix(".txt").build())
                        .build());

        env.execute("file-sink-to-embedded-s3");

        List<String> keys = sdk.listObjectsV2Paginator(b -> b.bucket("lake").prefix("filesink/"))
                .contents().stream().map(S3Object::key).toList();
        assertThat(keys).isNotEmpty().allMatch(k -> k.matches("filesink/part-[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}-\\d+\\.txt"), "a committed part");
        List<String> lines = new ArrayList<>();
        for (String key : keys) {
            assertThat(s3.fileOf(key)).isRegularFile();
            lines.addAll(sdk.getObjectAsBytes(b -> b.bucket("lake").key(key)).asUtf8String().lines().toList());
        }
        assertThat(lines).containsExactlyInAnyOrderElementsOf(
                LongStream.rangeClosed(1, RECORDS).mapToObj(i -> "record-" + i).toList());
        assertThat(sdk.listMultipartUploads(b -> b.bucket("lake").prefix("filesink/")).uploads()).isEmpty();
    }
}
