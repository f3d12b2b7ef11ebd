package io.queenlake.job.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.broker.client.KvOp;
import io.queenlake.broker.kv.SinkKeys;
import io.queenlake.format.manifest.Committed;
import io.queenlake.format.model.LogRecord;
import io.queenlake.job.cli.RepairPointerRun;
import io.queenlake.source.testlog.CapturedLog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 25: the lake is the truth. A broker that lost its data (restarted with an empty data dir)
 * or a commit pointer deleted by hand never makes a start rewrite a committed window: with and
 * without Flink state the queue is refused in one line naming the highest manifest, no manifest's
 * bytes change, the job's other queues keep committing, and once {@code repair-pointer} rebuilt
 * the pointer from the lake the running job continues the queue at {@code k + 1}, every record
 * acknowledged before and after in the lake exactly once.
 */
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class ForgetfulBrokerITCase {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

    private static final List<String> PARTITIONS = List.of("p0", "p/1");
    private static final String REFUSALS = "io.queenlake.source.enumerator.RefusedQueues";
    private static final Duration REFUSAL_TIMEOUT = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    // While a job runs, records are pushed at the wall clock's pace (pushRounds), never by moving the broker's
    // clock (pushRoundsOnClock): a jump past the lease TTL would expire the job's leases under it.

    @Test
    void aPointerDeletedByHandIsRefusedAtTheNextStartAndOnceRepairedTheQueueContinuesAtTheNextWindow() throws Exception {
        String orders = "deleted/orders";
        String refunds = "deleted/refunds";
        try (PipelineRig rig = new PipelineRig(dir); CapturedLog refusals = CapturedLog.of(REFUSALS)) {
            SeededProducer producer = new SeededProducer(rig.client, 25, List.of(orders, refunds), PARTITIONS);
            producer.pushRoundsOnClock(rig, 15, 150);
            LakeJob spec = LakeJob.of("deleted", rig.fileRoot("deleted"), List.of(orders, refunds));
            RunningJob first = rig.start(spec);
            Committed committed = rig.awaitCovered(first, rig.readLogs(producer)).get(orders);
            first.cancel();
            Map<String, String> manifests = manifests(spec);
            // An operator deletes the pointer (the intent stays).
            rig.client.kv(List.of(KvOp.delete(SinkKeys.NAMESPACE, new SinkKeys(spec.sink()).committed(orders))));

            RunningJob second = rig.start(spec);
            producer.pushRounds(15, 150);
            Map<String, List<LogRecord>> log = rig.readLogs(producer);
            rig.awaitCovered(second, Map.of(refunds, log.get(refunds)));
            String line = awaitRefusal(refusals, orders, 1);

            assertThat(line).contains("ERROR queue '" + orders + "' is refused: its commit pointer",
                    "is absent but manifests 1.." + committed.k() + " exist in the bucket",
                    "someone deleted the pointer", "repair-pointer --queue " + orders, "continues at k=" + (committed.k() + 1));
            assertThat(rig.pointers(spec.sink()).read(orders).pointer()).as("nothing of the refused queue is committed")
                    .isEmpty();
            assertThat(manifests(spec)).as("no committed manifest changed").containsAllEntriesOf(manifests);

            RepairPointerRun.Outcome repaired = repair(rig, spec, orders);
            assertThat(repaired.exit()).as(repaired.out()).isZero();
            assertThat(repaired.out()).contains("writing k=" + committed.k());

            rig.awaitCovered(second, log);
            second.cancel();
            rig.assertExactlyOnce(spec, log);
            assertThat(manifests(spec)).containsAllEntriesOf(manifests);
            assertThat(refusals.lines()).anySatisfy(l -> assertThat(l).contains("queue '" + orders
                    + "' is no longer refused"));
            System.out.printf("pointer deleted by hand: %s%n  repaired at k=%d, continued to k=%d, %d records once%n",
                    line, committed.k(), rig.pointers(spec.sink()).read(orders).k(), log.get(orders).size());
        }
    }

    @Test
    void aBrokerThatLostItsDataUnderARunningJobIsRefusedWithAndWithoutStateWhileANewQueueCommitsAndRepairedTheLakeHoldsBothLogsOnce()
            throws Exception {
        String orders = "lost/orders";
        String fresh = "lost/fresh";
        try (PipelineRig rig = new PipelineRig(dir); CapturedLog refusals = CapturedLog.of(REFUSALS)) {
            SeededProducer before = new SeededProducer(rig.client, 31, List.of(orders), PARTITIONS);
            before.pushRoundsOnClock(rig, 15, 150);
            LakeJob spec = LakeJob.of("lost", rig.fileRoot("lost"), List.of(orders, fresh)).restarts(3);
            RunningJob running = rig.start(spec);
            Committed atSavepoint = rig.awaitCovered(running, rig.readLogs(before)).get(orders);
            String savepoint = running.savepoint(dir.resolve("savepoints"));
            // More windows after the savepoint: a restore of it has a cut behind the lake.
            before.pushRounds(15, 150);
            Map<String, List<LogRecord>> lostLog = rig.readLogs(before);
            Committed committed = rig.awaitCovered(running, lostLog).get(orders);
            assertThat(committed.k()).isGreaterThan(atSavepoint.k());
            Map<String, String> manifests = manifests(spec);

            // Under the running job: its leases vanish with the KV, so it restarts from its checkpoint, and
            // the restored split of the forgotten queue is parked while the new queue commits.
            rig.restartBrokerEmpty();
            String underTheJob = awaitRefusal(refusals, orders, 1);
            SeededProducer after = new SeededProducer(rig.client, 32, List.of(orders, fresh), PARTITIONS);
            after.pushRounds(8, 150);
            rig.awaitCovered(running, Map.of(fresh, rig.readLogs(after).get(fresh)));
            running.cancel();
            assertThat(underTheJob).contains("ERROR queue '" + orders + "' is refused: its commit pointer",
                    "is absent but manifests 1.." + committed.k() + " exist in the bucket", "the broker lost its KV",
                    "repair-pointer --queue " + orders, "continues at k=" + (committed.k() + 1));
            assertThat(rig.pointers(spec.sink()).read(orders).pointer()).isEmpty();
            assertThat(manifests(spec)).as("no committed manifest changed").containsAllEntriesOf(manifests);

            // Without state: refused again; the new queue goes on.
            RunningJob fromNothing = rig.start(spec);
            awaitRefusal(refusals, orders, 2);
            after.pushRounds(8, 150);
            rig.awaitCovered(fromNothing, Map.of(fresh, rig.readLogs(after).get(fresh)));
            fromNothing.cancel();
            assertThat(rig.pointers(spec.sink()).read(orders).pointer()).isEmpty();
            assertThat(manifests(spec)).containsAllEntriesOf(manifests);

            // With state, from the savepoint taken before the loss (its cut k=atSavepoint, behind the lake):
            // refused again; repaired while this job runs, the queue starts from the repaired pointer, k+1.
            RunningJob restored = rig.start(spec.restoredFrom(savepoint));
            awaitRefusal(refusals, orders, 3);
            after.pushRounds(8, 150);
            Map<String, List<LogRecord>> newLog = rig.readLogs(after);
            rig.awaitCovered(restored, Map.of(fresh, newLog.get(fresh)));
            assertThat(manifests(spec)).containsAllEntriesOf(manifests);

            RepairPointerRun.Outcome repaired = repair(rig, spec, orders);
            assertThat(repaired.exit()).as(repaired.out()).isZero();
            assertThat(repaired.out()).contains("writing k=" + committed.k());
            rig.awaitCovered(restored, newLog);
            restored.cancel();

            Map<String, List<LogRecord>> everything = new LinkedHashMap<>();
            List<LogRecord> ordersBothLogs = new ArrayList<>(lostLog.get(orders));
            ordersBothLogs.addAll(newLog.get(orders));
            everything.put(orders, ordersBothLogs);
            everything.put(fresh, newLog.get(fresh));
            rig.assertExactlyOnce(spec, everything);
            assertThat(manifests(spec)).containsAllEntriesOf(manifests);
            Committed now = rig.pointers(spec.sink()).read(orders).pointer().orElseThrow();
            assertThat(now.k()).isGreaterThan(committed.k());
            System.out.printf("broker restarted empty under the job: %s%n  savepoint at k=%d, lake at k=%d; repaired"
                    + " while the restored job ran, continued to k=%d; orders %d records before the loss and %d after,"
                    + " each once%n", underTheJob, atSavepoint.k(), committed.k(), now.k(), lostLog.get(orders).size(),
                    newLog.get(orders).size());
        }
    }

    private static RepairPointerRun.Outcome repair(PipelineRig rig, LakeJob spec, String queue) throws Exception {
        Path lake = Path.of(java.net.URI.create(spec.root()));
        Map<String, String> env = Map.of("QUEEN_URL", rig.broker.url().toString(),
                "QUEEN_S3_ENDPOINT", lake.getParent().toUri().toString(),
                "QUEEN_S3_BUCKET", lake.getFileName().toString());
        return RepairPointerRun.run(env, "--queue", queue, "--sink", spec.sink());
    }

    /** Waits for the {@code n}-th refusal line of {@code queue}; returns it. */
    private static String awaitRefusal(CapturedLog log, String queue, int n) throws InterruptedException {
        long deadline = System.nanoTime() + REFUSAL_TIMEOUT.toNanos();
        while (true) {
            List<String> lines = log.lines().stream().filter(l -> l.contains("queue '" + queue + "' is refused")).toList();
            if (lines.size() >= n) {
                return lines.get(n - 1);
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no refusal #" + n + " of queue '" + queue + "' within " + REFUSAL_TIMEOUT
                        + "; lines: " + log.lines());
            }
            Thread.sleep(20);
        }
    }

    /** Every manifest of the job's lake with the sha256 of its bytes. */
    private static Map<String, String> manifests(LakeJob spec) throws Exception {
        Path lake = Path.of(java.net.URI.create(spec.root()));
        Map<String, String> sums = new TreeMap<>();
        try (Stream<Path> files = Files.walk(lake)) {
            for (Path file : files.filter(f -> f.toString().contains("/windows/") && f.toString().endsWith(".json"))
                    .toList()) {
                sums.put(lake.relativize(file).toString(),
                        HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file))));
            }
        }
        assertThat(sums).as("manifests in %s", lake).isNotEmpty();
        return sums;
    }
}
