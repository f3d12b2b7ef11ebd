package io.queenlake.source.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.broker.client.QueueOptions;
import io.queenlake.source.QueenSource;
import io.queenlake.source.it.SourceItRig.Seen;
import io.queenlake.source.testutils.SavepointStop;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Loss is never silent: a retention gap found on restore and a partition re-created under a
 * running job each become a lost range on the next record of that partition, and reading goes on.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LostRangesITCase {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(
            new MiniClusterResourceConfiguration.Builder().setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

    @TempDir
    Path savepoints;

    private SourceItRig rig;
    private String instance;

    @BeforeEach
    void startBroker() throws Exception {
        rig = new SourceItRig();
        instance = "lost-" + System.nanoTime();
    }

    @AfterEach
    void stopBroker() {
        rig.close();
    }

    /** A job reading {@code queue}, restored from {@code savepoint} when given; its lines collected. */
    private Running start(String queue, String savepoint) throws Exception {
        Configuration conf = new Configuration();
        if (savepoint != null) {
            conf.set(StateRecoveryOptions.SAVEPOINT_PATH, savepoint);
            // The collect sink gets a new operator id per job; the source and the map keep theirs.
            conf.set(StateRecoveryOptions.SAVEPOINT_IGNORE_UNCLAIMED_STATE, true);
        }
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(2);
        env.enableCheckpointing(200);
        QueenSource source = rig.source(queue).instance(instance).build();
        CloseableIterator<String> lines = env.fromSource(source, source.watermarkStrategy(), "queen").uid("queen")
                .flatMap(Seen::lines).uid("lines").returns(Types.STRING)
                .collectAsync();
        JobClient job = env.executeAsync("lost-ranges");
        return new Running(job, new Collected(lines));
    }

    private record Running(JobClient job, Collected out) {}

    private static List<Seen> of(Collected out, String partition) {
        List<Seen> seen = new ArrayList<>();
        for (Seen s : SourceItRig.parseAll(out.lines())) {
            if (s.partition().equals(partition)) {
                seen.add(s);
            }
        }
        return seen;
    }

    @Test
    void aRetentionGapFoundOnRestoreRidesOnTheNextRecordAndReadingContinues() throws Exception {
        rig.push(List.of(SourceItRig.item("kept", "p", "0"), SourceItRig.item("kept", "p", "1"),
                SourceItRig.item("kept", "p", "2"), SourceItRig.item("kept", "other", "0")));
        Running first = start("kept", null);
        SourceItRig.await("the first records", () -> first.out().size() >= 4, Duration.ofSeconds(30),
                () -> first.out().lines().toString());
        String savepoint = SavepointStop.stop(first.job(), savepoints, Duration.ofSeconds(60));
        first.out().close();

        // While the job is stopped: offsets 3..6 are written, then retention trims them unread.
        rig.push(List.of(SourceItRig.item("kept", "p", "3"), SourceItRig.item("kept", "p", "4"),
                SourceItRig.item("kept", "p", "5"), SourceItRig.item("kept", "p", "6")));
        rig.skewMicros.addAndGet(120_000_000L);
        rig.push(List.of(SourceItRig.item("kept", "p", "7")));
        rig.client.configure("kept", QueueOptions.retention(60));
        rig.broker.runRetentionNow();

        Running second = start("kept", savepoint);
        try (Collected out = second.out()) {
            SourceItRig.await("the record after the gap", () -> !of(out, "p").isEmpty() || out.failure() != null,
                    Duration.ofSeconds(30), () -> out.lines().toString());
            rig.push(List.of(SourceItRig.item("kept", "p", "8")));
            SourceItRig.await("reading to go on", () -> of(out, "p").size() >= 2 || out.failure() != null,
                    Duration.ofSeconds(30), () -> out.lines().toString());
            out.rethrowFailure();

            List<Seen> p = of(out, "p");
            assertThat(p).extracting(Seen::offset).containsExactly(7L, 8L);
            assertThat(p.get(0).lost()).isEqualTo("3-6;");
            assertThat(p.get(1).lost()).isEmpty();
            assertThat(of(out, "other")).as("nothing is read twice after the restore").isEmpty();
            second.job().cancel().get(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void aPartitionReCreatedUnderARunningJobIsReadFromItsNewStartAndNoOffsetGoesUnaccounted() throws Exception {
        rig.push(List.of(SourceItRig.item("reborn", "p", "\"a0\""), SourceItRig.item("reborn", "p", "\"a1\""),
                SourceItRig.item("reborn", "p", "\"a2\"")));
        Running running = start("reborn", null);
        try (Collected out = running.out()) {
            SourceItRig.await("the first incarnation", () -> of(out, "p").size() >= 3, Duration.ofSeconds(30),
                    () -> out.lines().toString());
            String oldId = of(out, "p").get(0).partitionId();
            rig.push(List.of(SourceItRig.item("reborn", "p", "\"a3\""), SourceItRig.item("reborn", "p", "\"a4\""),
                    SourceItRig.item("reborn", "p", "\"a5\"")));
            rig.broker.deletePartition(SourceItRig.TENANT, "reborn", "p");
            List<String> reborn = List.of("\"b0\"", "\"b1\"", "\"b2\"", "\"b3\"", "\"b4\"", "\"b5\"", "\"b6\"", "\"b7\"");
            List<io.queenlake.broker.client.PushItem> items = new ArrayList<>();
            reborn.forEach(payload -> items.add(SourceItRig.item("reborn", "p", payload)));
            rig.push(items);

            SourceItRig.await("the new incarnation", () -> of(out, "p").stream().filter(s -> !s.partitionId().equals(oldId)).count() >= 8
                    || out.failure() != null, Duration.ofSeconds(30), () -> out.lines().toString());
            Thread.sleep(500);
            out.rethrowFailure();

            List<Seen> p = of(out, "p");
            List<Seen> old = p.stream().filter(s -> s.partitionId().equals(oldId)).toList();
            List<Seen> fresh = p.stream().filter(s -> !s.partitionId().equals(oldId)).toList();
            assertThat(fresh).extracting(Seen::offset).containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L);
            assertThat(fresh).extracting(Seen::payload).containsExactlyElementsOf(reborn);
            assertThat(fresh.subList(1, fresh.size())).allSatisfy(s -> assertThat(s.lost()).isEmpty());
            // Every old offset was either read (as the old incarnation, with its own bytes) or reported lost on
            // the new incarnation's first record; none both, none read as the other incarnation.
            TreeSet<Long> accounted = new TreeSet<>();
            for (Seen s : old) {
                assertThat(accounted.add(s.offset())).isTrue();
                assertThat(s.payload()).isEqualTo("\"a" + s.offset() + "\"");
            }
            for (String range : fresh.get(0).lost().split(";")) {
                if (!range.isEmpty()) {
                    long from = Long.parseLong(range.split("-")[0]);
                    long to = Long.parseLong(range.split("-")[1]);
                    for (long o = from; o <= to; o++) {
                        assertThat(accounted.add(o)).as("offset %d read and lost", o).isTrue();
                    }
                }
            }
            assertThat(accounted.first()).isZero();
            assertThat(accounted.last()).isEqualTo(accounted.size() - 1L).isBetween(2L, 5L);
            System.out.println("re-created partition: old offsets read " + old.size() + ", lost on the new one: "
                    + (fresh.get(0).lost().isEmpty() ? "none" : fresh.get(0).lost()));
            running.job().cancel().get(30, TimeUnit.SECONDS);
        }
    }
}
