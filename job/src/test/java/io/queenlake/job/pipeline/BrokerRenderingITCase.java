package io.queenlake.job.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.broker.client.PushItem;
import io.queenlake.connector.testutils.BrokerLog;
import io.queenlake.format.jsonl.Compression;
import io.queenlake.format.model.Align;
import io.queenlake.format.model.Layout;
import io.queenlake.format.model.LogRecord;
import io.queenlake.format.object.Format;
import io.queenlake.format.parquet.ParquetCodec;
import io.queenlake.format.window.WriterSettings;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The pipeline over both kinds of broker answer: the dev broker as stored (Queen's in-process
 * path) and rendering payloads as Queen's raft broker does over HTTP. The same pushed payloads
 * reach the lake as the text each broker answers, exactly once, in JSONL and Parquet: the
 * producer's bytes in the first case, serde_json's re-printing in the second.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class BrokerRenderingITCase {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

    @TempDir
    static Path dir;

    static final String QUEUE = "fidelity";
    static final List<String> PARTITIONS = List.of("p");

    /** Pushed text, then the raft broker's rendering of it. */
    static final String[][] PAYLOADS = {
        {"{ \"total\" : 42.00,\n  \"order\" : 1 }", "{\"order\":1,\"total\":42.0}"},
        {"123456789012345678901234567890", "1.2345678901234568e29"},
        {"[-0, 1e2, 1E+400]", "\"[-0, 1e2, 1E+400]\""},
        {"[-0, 1e2, 2.5e-400]", "[-0.0,100.0,0.0]"},
        {"\"caf\\u00e9 \\u2028\"", "\"caf\u00e9 \u2028\""},
        {"null", "null"},
        {"{\"z\":{\"b\":[true,false],\"a\":null},\"a\":\"\\\"\"}", "{\"a\":\"\\\"\",\"z\":{\"a\":null,\"b\":[true,false]}}"},
    };

    private static PipelineRig stored;
    private static PipelineRig rendered;
    private static Map<String, List<LogRecord>> storedLog;
    private static Map<String, List<LogRecord>> renderedLog;

    @BeforeAll
    static void pushTheSamePayloadsToBothBrokers() throws Exception {
        stored = new PipelineRig(dir.resolve("stored"), false);
        rendered = new PipelineRig(dir.resolve("rendered"), true);
        storedLog = pushAndReadBack(stored);
        renderedLog = pushAndReadBack(rendered);
        List<LogRecord> s = storedLog.get(QUEUE);
        List<LogRecord> r = renderedLog.get(QUEUE);
        assertThat(s).hasSize(PAYLOADS.length);
        assertThat(r).hasSize(PAYLOADS.length);
        for (int i = 0; i < PAYLOADS.length; i++) {
            assertThat(text(s.get(i))).as("stored answer %d", i).isEqualTo(PAYLOADS[i][0]);
            assertThat(text(r.get(i))).as("rendered answer %d", i).isEqualTo(PAYLOADS[i][1]);
        }
    }

    private static Map<String, List<LogRecord>> pushAndReadBack(PipelineRig rig) {
        List<PushItem> items = new ArrayList<>();
        for (int i = 0; i < PAYLOADS.length; i++) {
            items.add(PushItem.of(QUEUE, "p", "t-" + i, PAYLOADS[i][0]));
        }
        assertThat(rig.client.push(items)).hasSize(PAYLOADS.length);
        return Map.of(QUEUE, BrokerLog.read(rig.client, QUEUE, PARTITIONS));
    }

    private static String text(LogRecord r) {
        return new String(r.payload(), StandardCharsets.UTF_8);
    }

    @AfterAll
    static void stopServers() {
        stored.close();
        rendered.close();
    }

    static Stream<Arguments> cases() {
        WriterSettings jsonl = new WriterSettings(new Format.Jsonl(Compression.ZSTD), Layout.MERGED, Align.HOUR,
                LakeJob.NO_CUT);
        WriterSettings parquet = new WriterSettings(new Format.Parquet(ParquetCodec.ZSTD), Layout.MERGED, Align.HOUR,
                LakeJob.NO_CUT);
        return Stream.of(
                Arguments.of("stored", "jsonl", jsonl),
                Arguments.of("stored", "parquet", parquet),
                Arguments.of("rendered", "jsonl", jsonl),
                Arguments.of("rendered", "parquet", parquet));
    }

    @ParameterizedTest(name = "{0} payloads into {1}")
    @MethodSource("cases")
    void theLakeHoldsThePayloadTextTheBrokerAnswered(String mode, String format, WriterSettings writer)
            throws Exception {
        PipelineRig rig = mode.equals("rendered") ? rendered : stored;
        Map<String, List<LogRecord>> log = mode.equals("rendered") ? renderedLog : storedLog;
        LakeJob job = LakeJob.of("render-" + mode + "-" + format, rig.fileRoot(format), List.of(QUEUE)).writer(writer);
        RunningJob running = rig.start(job);
        rig.awaitCovered(running, log);
        running.cancel();
        // the checker compares every payload byte for byte with the broker's answer (JSONL: line breaks as spaces)
        assertThat(rig.assertExactlyOnce(job, log)).isPositive();
    }
}
