package io.queenlake.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.broker.client.HttpQueenClient;
import io.queenlake.broker.client.PushItem;
import io.queenlake.broker.client.PushResult;
import io.queenlake.broker.client.QueenClient;
import io.queenlake.devstack.broker.DevBroker;
import io.queenlake.devstack.broker.DevBrokerOptions;
import io.queenlake.format.window.WriterSettings;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.ParameterTool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's example job, run as written against the dev broker on a MiniCluster: every record
 * pushed to its queues is in the lake once, as DuckDB reads the lake with nothing in front of it.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class MirrorQueuesToLakeITCase {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

    @TempDir
    Path lake;

    @Test
    void everyPushedRecordLandsInTheLakeOnce() throws Exception {
        try (DevBroker broker = DevBroker.start(DevBrokerOptions.builder().build())) {
            QueenClient client = HttpQueenClient.builder().baseUrl(broker.url().toString()).build();
            Set<String> pushed = push(client, List.of("orders", "refunds"), 60);

            StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
            env.setParallelism(2);
            MirrorQueuesToLake.attach(env, ParameterTool.fromArgs(new String[] {
                    "--broker", broker.url().toString(), "--queues", "orders,refunds", "--lake", lake.toUri().toString(),
                    "--window-ms", "1000", "--checkpoint-ms", "300", "--start", "earliest"}));
            JobClient job = env.executeAsync("example");
            try {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(150);
                long[] counted = lakeCounts();
                while (counted[0] < pushed.size() && System.nanoTime() < deadline) {
                    JobStatus status = job.getJobStatus().get();
                    assertThat(status.isGloballyTerminalState()).as("the example job ended: %s", status).isFalse();
                    Thread.sleep(500);
                    counted = lakeCounts();
                }
                assertThat(counted[0]).as("records in the lake").isEqualTo(pushed.size());
                assertThat(counted[1]).as("distinct transaction ids in the lake").isEqualTo(pushed.size());
                assertThat(transactionIds()).containsExactlyInAnyOrderElementsOf(pushed);
            } finally {
                job.cancel().get(60, TimeUnit.SECONDS);
            }
        }
    }

    private static Set<String> push(QueenClient client, List<String> queues, int perPartition) {
        Set<String> ids = new HashSet<>();
        List<PushItem> items = new ArrayList<>();
        for (String queue : queues) {
            for (String partition : List.of("eu", "us", "apac")) {
                for (int i = 0; i < perPartition; i++) {
                    String id = UUID.randomUUID().toString();
                    ids.add(id);
                    items.add(PushItem.of(queue, partition, id, "{\"n\":" + i + ",\"partition\":\"" + partition + "\"}"));
                }
            }
        }
        for (PushResult result : client.push(items)) {
            assertThat(result.status()).isEqualTo(PushResult.PushStatus.QUEUED);
        }
        return ids;
    }

    /** Records and distinct transaction ids in the lake's committed data objects. */
    private long[] lakeCounts() throws Exception {
        if (!hasObjects()) {
            return new long[] {0, 0};
        }
        try (Connection duck = DriverManager.getConnection("jdbc:duckdb:");
                ResultSet rs = duck.createStatement().executeQuery(
                        "SELECT count(*), count(DISTINCT transactionId) FROM " + lakeTable())) {
            rs.next();
            return new long[] {rs.getLong(1), rs.getLong(2)};
        }
    }

    private List<String> transactionIds() throws Exception {
        List<String> ids = new ArrayList<>();
        try (Connection duck = DriverManager.getConnection("jdbc:duckdb:");
                ResultSet rs = duck.createStatement().executeQuery("SELECT transactionId FROM " + lakeTable())) {
            while (rs.next()) {
                ids.add(rs.getString(1));
            }
        }
        return ids;
    }

    private String lakeTable() {
        // The builder's default objects: JSONL+zstd under dt=/hour= directories (README, "Reading the lake").
        String hour = WriterSettings.defaults().align().hasHourDirectory() ? "hour=*/" : "";
        return "read_json('" + lake.resolve("queen") + "/tenant=*/queue=*/dt=*/" + hour + "*.jsonl.zst', format='newline_delimited',"
                + " columns={partition:'VARCHAR', \"offset\":'BIGINT', transactionId:'VARCHAR', ts:'VARCHAR', payload:'JSON'})";
    }

    private boolean hasObjects() throws Exception {
        try (var files = java.nio.file.Files.walk(lake)) {
            return files.anyMatch(p -> p.toString().endsWith(".jsonl.zst") && !p.toString().contains("/_queen/"));
        }
    }
}
