package io.queenlake.job.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.format.manifest.Committed;
import io.queenlake.format.model.LogRecord;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import io.queenlake.broker.client.KvExpiry;
import io.queenlake.broker.client.KvOp;
import io.queenlake.broker.client.QueenException;
import io.queenlake.broker.client.RawJson;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pipeline under a tight KV write budget ({@code dev-broker --kv-write-rate 10}, a tenth of
 * Queen's): the lease rounds, intents and pointer moves of two queues share ten write calls a
 * second with a neighbour in the same tenant that spends eight of them, calls over it are answered
 * 429 with Retry-After, and the job neither fails nor loses or repeats a record.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class KvWriteBudgetITCase {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

    @TempDir
    static Path dir;

    static final List<String> QUEUES = List.of("orders", "payments");
    static final List<String> PARTITIONS = List.of("p0", "p1");

    private static PipelineRig rig;

    @BeforeAll
    static void startBroker() throws Exception {
        rig = new PipelineRig(dir, broker -> broker.kvWriteRate(10));
    }

    @AfterAll
    static void stopBroker() throws Exception {
        rig.close();
    }

    @Test
    void twoQueuesCommitEveryRecordOnceWithinTenKvWriteCallsASecond() throws Exception {
        // A refresh refused three times waits 3 s of Retry-After: a 2 s lease would expire under it.
        LakeJob job = LakeJob.of("budgeted", rig.fileRoot("budgeted"), QUEUES).leaseTtlMs(6_000);
        SeededProducer producer = new SeededProducer(rig.client, 41, QUEUES, PARTITIONS);

        AtomicBoolean spending = new AtomicBoolean(true);
        Thread neighbour = new Thread(() -> spendEightWritesASecond(spending), "kv-neighbour");
        neighbour.start();
        Map<String, List<LogRecord>> logs;
        Map<String, Committed> pointers;
        try {
            RunningJob running = rig.start(job);
            producer.pushRounds(20, 200); // about four windows of a second per queue
            logs = rig.readLogs(producer);
            pointers = rig.awaitCovered(running, logs);
            running.assertRunning();
            running.cancel();
        } finally {
            spending.set(false);
            neighbour.join();
        }

        long windows = rig.assertExactlyOnce(job, logs);
        System.out.println("KvWriteBudgetITCase: " + windows + " windows committed, pointers " + pointers + ", "
                + rig.broker.kvWritesRefused() + " KV write calls refused 429");
        assertThat(pointers.values()).allSatisfy(p -> assertThat(p.k()).isGreaterThanOrEqualTo(3));
        assertThat(rig.broker.kvWritesRefused()).as("the budget was spent at times").isPositive();
    }

    /** Another writer of the tenant (a second sink, a tool): eight write calls a second, its own 429s waited out. */
    private static void spendEightWritesASecond(AtomicBoolean spending) {
        int i = 0;
        while (spending.get()) {
            try {
                rig.client.kv(List.of(KvOp.upsert("neighbour", "n" + (i++ % 16), RawJson.of("1"), KvExpiry.seconds(60))));
            } catch (QueenException stillRefused) {
                // Refused again after its retries: the next call tries later.
            }
            try {
                Thread.sleep(125);
            } catch (InterruptedException e) {
                return;
            }
        }
    }
}
