package io.queenlake.source.enumerator;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.broker.client.QueueOptions;
import io.queenlake.broker.kv.SinkKeys;
import io.queenlake.format.key.Prefix;
import io.queenlake.format.key.SidecarKeys;
import io.queenlake.format.manifest.CheckpointDoc;
import io.queenlake.format.manifest.Committed;
import io.queenlake.format.manifest.Manifest;
import io.queenlake.format.manifest.ManifestJson;
import io.queenlake.format.model.Layout;
import io.queenlake.source.QueenSourceConfig;
import io.queenlake.source.StartMode;
import io.queenlake.source.split.PartitionSplit;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where a queue first found without Flink state starts: start=latest/earliest, the commit pointer, the bucket checkpoint. */
class StartPositionsTest {

    private static final long SECOND = 1_000_000L;

    private EnumeratorRig rig;

    @TempDir
    Path lake;

    @BeforeEach
    void startBroker() throws Exception {
        rig = new EnumeratorRig();
    }

    @AfterEach
    void stopBroker() throws Exception {
        rig.close();
    }

    @Test
    void latestSkipsWhatWasWrittenBeforeTheFirstPassAndReadsLaterPartitionsFromTheirStart() throws Throwable {
        rig.push("orders", "old", 3);
        Started s = start(rig.config(b -> b.start(StartMode.LATEST)));
        long firstSafeTime = s.enumerator.lastSafeTimeMicros();

        assertThat(s.byPartition().get("old")).isEqualTo(
                PartitionSplit.atOffset("orders", "old", s.id("old"), 3, firstSafeTime + 1));

        rig.push("orders", "new", 2);
        s.context.discoveryRun();
        assertThat(s.byPartition().get("new")).isEqualTo(
                PartitionSplit.atOffset("orders", "new", s.id("new"), 0, Long.MIN_VALUE));
    }

    @Test
    void earliestStartsEveryPartitionAtItsLogStart() throws Throwable {
        rig.client.configure("orders", QueueOptions.retention(1));
        rig.push("orders", "trimmed", 3);
        rig.advance(5 * SECOND);
        rig.push("orders", "trimmed", 1);
        rig.broker.runRetentionNow();

        Started s = start(rig.config(b -> b.start(StartMode.EARLIEST)));

        assertThat(s.byPartition().get("trimmed")).isEqualTo(
                PartitionSplit.atOffset("orders", "trimmed", s.id("trimmed"), 3, Long.MIN_VALUE));
    }

    @Test
    void aCommitPointerStartsEachPartitionAtItsTEndWhateverStartSays() throws Throwable {
        rig.push("orders", "busy", 2);
        rig.push("orders", "quiet", 1);
        long tEnd = EnumeratorRig.wallMicros() + rig.skewMicros.get() + SECOND;
        rig.advance(5 * SECOND);
        rig.push("orders", "busy", 2);
        rig.putForever(new SinkKeys("test").committed("orders"),
                new Committed(3, tEnd, "queen/_queen/windows/0000000003.json", 7, 700, 1).toJson());

        Started s = start(rig.config(b -> b.start(StartMode.EARLIEST)));

        assertThat(s.byPartition().get("busy")).isEqualTo(PartitionSplit.atTime("orders", "busy", s.id("busy"), tEnd));
        assertThat(s.byPartition().get("quiet")).as("nothing at or after tEnd: no seek")
                .isEqualTo(PartitionSplit.atOffset("orders", "quiet", s.id("quiet"), 1, tEnd));

        rig.push("orders", "later", 1);
        s.context.discoveryRun();
        assertThat(s.byPartition().get("later")).isEqualTo(PartitionSplit.atOffset("orders", "later", s.id("later"), 0, tEnd));
    }

    @Test
    void aBucketCheckpointAtOrBelowThePointerGivesThePositionsOfTheSameIncarnation() throws Throwable {
        rig.push("orders", "a", 4);
        rig.push("orders", "b", 6);
        rig.push("orders", "c", 2);
        Map<String, String> ids = idsOf("orders");
        long tEnd = 1_000L; // every record is stamped after it
        rig.putForever(new SinkKeys("test").committed("orders"),
                new Committed(3, tEnd, "m", 12, 1200, 1).toJson());
        SidecarKeys keys = new SidecarKeys(Prefix.of(lake.resolve("queen").toString()), EnumeratorRig.TENANT, "orders");
        write(keys.checkpoint(2), new CheckpointDoc(2, tEnd, List.of(new CheckpointDoc.Position("a", 0, ids.get("a")))));
        write(keys.checkpoint(3), new CheckpointDoc(3, tEnd, List.of(
                new CheckpointDoc.Position("a", 2, ids.get("a")),
                new CheckpointDoc.Position("b", 5, "an-older-incarnation"))));
        write(keys.checkpoint(5), new CheckpointDoc(5, tEnd, List.of(new CheckpointDoc.Position("a", 3, ids.get("a")))));

        Started s = start(rig.config(b -> b.lakeRoot(lake.resolve("queen").toUri().toString())));

        assertThat(s.byPartition().get("a")).as("the checkpoint of the committed k, not a newer one")
                .isEqualTo(PartitionSplit.atOffset("orders", "a", ids.get("a"), 2, tEnd));
        assertThat(s.byPartition().get("b")).as("another incarnation's position is not used")
                .isEqualTo(PartitionSplit.atTime("orders", "b", ids.get("b"), tEnd));
        assertThat(s.byPartition().get("c")).isEqualTo(PartitionSplit.atTime("orders", "c", ids.get("c"), tEnd));
    }

    @Test
    void theManifestsSinceTheNewestCheckpointMoveThePartitionsOfTheirWindowsAndAMissingOneIsSkipped() throws Throwable {
        rig.push("orders", "a", 4);
        rig.push("orders", "b", 6);
        rig.push("orders", "c", 2);
        rig.push("orders", "d", 3);
        Map<String, String> ids = idsOf("orders");
        long tEnd = 1_000L; // every record is stamped after it
        rig.putForever(new SinkKeys("test").committed("orders"), new Committed(5, tEnd, "m", 12, 1200, 1).toJson());
        Prefix prefix = Prefix.of(lake.resolve("queen").toString());
        SidecarKeys keys = new SidecarKeys(prefix, EnumeratorRig.TENANT, "orders");
        write(keys.checkpoint(2), new CheckpointDoc(2, tEnd, List.of(
                new CheckpointDoc.Position("a", 0, ids.get("a")), new CheckpointDoc.Position("b", 1, ids.get("b")))));
        writeManifest(keys.manifest(3), 3, List.of(new CheckpointDoc.Position("a", 2, ids.get("a"))));
        writeManifest(keys.manifest(4), 4, List.of(
                new CheckpointDoc.Position("a", 3, ids.get("a")), new CheckpointDoc.Position("c", 1, ids.get("c"))));
        // manifest 5 is missing: the partitions of window 5 keep their older position

        Started s = start(rig.config(b -> b.lakeRoot(lake.resolve("queen").toUri().toString())));

        assertThat(s.byPartition().get("a")).as("the newest window that held it, not the checkpoint")
                .isEqualTo(PartitionSplit.atOffset("orders", "a", ids.get("a"), 3, tEnd));
        assertThat(s.byPartition().get("b")).as("no record since the checkpoint")
                .isEqualTo(PartitionSplit.atOffset("orders", "b", ids.get("b"), 1, tEnd));
        assertThat(s.byPartition().get("c")).as("first seen after the checkpoint")
                .isEqualTo(PartitionSplit.atOffset("orders", "c", ids.get("c"), 1, tEnd));
        assertThat(s.byPartition().get("d")).as("in no committed window: by time")
                .isEqualTo(PartitionSplit.atTime("orders", "d", ids.get("d"), tEnd));
    }

    @Test
    void aCorruptCheckpointIsIgnoredAndThePointerStillHolds() throws Throwable {
        rig.push("orders", "a", 2);
        long tEnd = 1_000L;
        rig.putForever(new SinkKeys("test").committed("orders"), new Committed(3, tEnd, "m", 2, 20, 1).toJson());
        SidecarKeys keys = new SidecarKeys(Prefix.of(lake.resolve("queen").toString()), EnumeratorRig.TENANT, "orders");
        Path object = Path.of("/" + keys.checkpoint(3));
        Files.createDirectories(object.getParent());
        Files.write(object, new byte[] {1, 2, 3, 4});

        Started s = start(rig.config(b -> b.lakeRoot(lake.resolve("queen").toUri().toString())));

        assertThat(s.byPartition().get("a")).isEqualTo(PartitionSplit.atTime("orders", "a", s.id("a"), tEnd));
    }

    @Test
    void aRestoredQueueKeepsItsDecisionEvenWhenAPointerAppearedSince() throws Throwable {
        rig.push("orders", "a", 2);
        QueenSourceConfig config = rig.config(b -> b.start(StartMode.LATEST));
        Started s = start(config);
        QueenEnumState state = s.enumerator.snapshotState(1);
        s.enumerator.close();
        rig.putForever(new SinkKeys("test").committed("orders"), new Committed(1, 5L, "m", 1, 1, 1).toJson());
        rig.push("orders", "b", 1);

        RecordingContext context = rig.context(1);
        context.register(0);
        QueenSplitEnumerator restored = rig.start(config, context, state);
        restored.addReader(0);
        context.leaseRound();
        context.discoveryRun();

        assertThat(context.allSplits()).as("the queue's split is with its reader already").isEmpty();
        assertThat(context.startsOf("orders")).as("latest, as decided: no tEnd to skip below").containsEntry("b",
                PartitionSplit.atOffset("orders", "b", idsOf("orders").get("b"), 0, Long.MIN_VALUE));
    }

    private void write(String key, CheckpointDoc doc) throws Exception {
        Path object = Path.of("/" + key);
        Files.createDirectories(object.getParent());
        Files.write(object, doc.toObjectBytes());
    }

    private void writeManifest(String key, long k, List<CheckpointDoc.Position> positions) throws Exception {
        Manifest m = new Manifest("test", EnumeratorRig.TENANT, "orders", k, 0, 1, "jsonl", "zstd", Layout.MERGED,
                List.of(), 1, 1, positions.size(), 0, 0, List.of(), positions, "queen-lake/0.1.0 jsonl+zstd", 1L);
        Path object = Path.of("/" + key);
        Files.createDirectories(object.getParent());
        Files.write(object, ManifestJson.write(m));
    }

    private Map<String, String> idsOf(String queue) {
        return rig.client.partitionsChanged(List.of(io.queenlake.broker.client.ChangedQuery.firstPage(queue, 1000)))
                .entries().get(0).partitions().stream()
                .collect(Collectors.toMap(p -> p.name(), p -> p.id()));
    }

    private Started start(QueenSourceConfig config) throws Throwable {
        RecordingContext context = rig.context(1);
        context.register(0);
        QueenSplitEnumerator enumerator = rig.start(config, context, QueenEnumState.empty());
        enumerator.addReader(0);
        context.leaseRound();
        context.discoveryRun();
        return new Started(enumerator, context);
    }

    private record Started(QueenSplitEnumerator enumerator, RecordingContext context) {
        Map<String, PartitionSplit> byPartition() {
            return context.startsOf("orders");
        }

        String id(String partition) {
            return byPartition().get(partition).partitionId();
        }
    }
}
