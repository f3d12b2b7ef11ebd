package io.queenlake.source.enumerator;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.format.key.KeyBudget;
import io.queenlake.format.key.Prefix;
import io.queenlake.format.model.Layout;
import io.queenlake.source.QueenSourceConfig;
import io.queenlake.source.testlog.CapturedLog;
import io.queenlake.source.event.PartitionReplaced;
import io.queenlake.source.event.PassCompleted;
import io.queenlake.source.split.PartitionSplit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Discovery and assignment against the dev broker, with the async callables run by hand. */
class QueenSplitEnumeratorTest {

    private EnumeratorRig rig;

    @BeforeEach
    void startBroker() throws Exception {
        rig = new EnumeratorRig();
    }

    @AfterEach
    void stopBroker() throws Exception {
        rig.close();
    }

    @Test
    void everyPartitionIsAssignedOnceToItsStableOwner() throws Throwable {
        for (int p = 0; p < 24; p++) {
            rig.push("orders", "cust-" + p, 1);
        }
        RecordingContext context = rig.context(3);
        context.register(0, 1, 2);
        QueenSplitEnumerator enumerator = rig.start(rig.config(b -> {}), context, QueenEnumState.empty());
        for (int r = 0; r < 3; r++) {
            enumerator.addReader(r);
        }

        context.leaseRound();
        context.discoveryRun();
        context.discoveryRun();
        rig.push("orders", "cust-3", 2); // a known partition moving on is no new split
        context.discoveryRun();

        List<PartitionSplit> assigned = context.allSplits();
        assertThat(assigned).hasSize(24);
        assertThat(assigned.stream().map(PartitionSplit::partition).distinct()).hasSize(24);
        for (int r = 0; r < 3; r++) {
            for (PartitionSplit split : context.splitsOf(r)) {
                assertThat(SplitOwners.ownerOf("orders", split.partition(), 3)).as(split.partition()).isEqualTo(r);
            }
        }
        assertThat(Set.of(0, 1, 2)).allMatch(r -> !context.splitsOf(r).isEmpty());
    }

    @Test
    void aQueueIsDiscoveredAsSoonAsItsLeaseIsWonNotOneDiscoveryIntervalLater() throws Throwable {
        for (int p = 0; p < 4; p++) {
            rig.push("orders", "p" + p, 1);
        }
        RecordingContext context = rig.context(2);
        context.register(0, 1);
        QueenSplitEnumerator enumerator = rig.start(rig.config(b -> {}), context, QueenEnumState.empty());
        enumerator.addReader(0);
        enumerator.addReader(1);

        context.leaseRound(); // the periodic discovery run is never run by hand here
        assertThat(context.oneShotCalls()).as("one discovery run on the won lease").isEqualTo(1);

        assertThat(context.allSplits()).hasSize(4);
        assertThat(enumerator.completePasses()).isEqualTo(1);
        context.leaseRound(); // a lease kept is no reason to discover again
        assertThat(context.oneShotCalls()).isZero();
    }

    @Test
    void passCompletedFollowsTheAssignmentsOfItsPassWithTheReadersLastOffsets() throws Throwable {
        Map<String, Long> pushedLast = new HashMap<>();
        for (int p = 0; p < 8; p++) {
            List<Long> offsets = rig.push("orders", "p" + p, p + 1);
            pushedLast.put("p" + p, offsets.get(offsets.size() - 1));
        }
        RecordingContext context = rig.context(2);
        context.register(0, 1);
        QueenSplitEnumerator enumerator = rig.start(rig.config(b -> {}), context, QueenEnumState.empty());
        enumerator.addReader(0);
        enumerator.addReader(1);

        context.leaseRound();
        context.discoveryRun();

        for (int r = 0; r < 2; r++) {
            List<RecordingContext.Delivered> got = context.to(r);
            int pass = indexOfFirst(got, PassCompleted.class);
            assertThat(pass).as("reader %d got a pass", r).isGreaterThanOrEqualTo(0);
            List<PartitionSplit> before = got.subList(0, pass).stream()
                    .filter(d -> d.split() != null).map(RecordingContext.Delivered::split).toList();
            PassCompleted completed = (PassCompleted) got.get(pass).event();
            Map<String, Long> expected = new HashMap<>();
            for (PartitionSplit split : before) {
                expected.put(split.splitId(), pushedLast.get(split.partition()));
            }
            assertThat(before).as("every split of the pass came before it").hasSameSizeAs(context.splitsOf(r));
            assertThat(completed.lastOffsets()).isEqualTo(expected);
            assertThat(completed.safeTimeMicros()).isEqualTo(enumerator.lastSafeTimeMicros());
        }
    }

    @Test
    void aNewIncarnationIsANewSplitAnnouncedByItsReplacementToTheSameReader() throws Throwable {
        rig.push("orders", "a", 3);
        RecordingContext context = rig.context(2);
        context.register(0, 1);
        QueenSplitEnumerator enumerator = rig.start(rig.config(b -> {}), context, QueenEnumState.empty());
        enumerator.addReader(0);
        enumerator.addReader(1);
        context.leaseRound();
        context.discoveryRun();
        PartitionSplit first = context.allSplits().get(0);

        rig.broker.deletePartition(EnumeratorRig.TENANT, "orders", "a");
        rig.push("orders", "a", 2);
        context.discoveryRun();

        int owner = SplitOwners.ownerOf("orders", "a", 2);
        List<RecordingContext.Delivered> got = context.to(owner);
        int replacedAt = indexOfFirst(got, PartitionReplaced.class);
        PartitionReplaced replaced = (PartitionReplaced) got.get(replacedAt).event();
        assertThat(replaced.oldPartitionId()).isEqualTo(first.partitionId());
        assertThat(replaced.lastOffset()).isEqualTo(2);
        assertThat(replaced.oldSplitId()).isEqualTo(first.splitId());
        PartitionSplit second = got.get(replacedAt + 1).split();
        assertThat(second).as("the new split follows its replacement").isNotNull();
        assertThat(second.partition()).isEqualTo("a");
        assertThat(second.partitionId()).isEqualTo(replaced.newPartitionId()).isNotEqualTo(first.partitionId());
        assertThat(second.nextOffset()).isZero();
        PassCompleted last = context.eventsOf(owner, PassCompleted.class).get(1);
        assertThat(last.lastOffsets()).containsOnlyKeys(second.splitId()).containsEntry(second.splitId(), 1L);
    }

    @Test
    void aReaderWithoutSplitsGetsThePassWithNoOffsets() throws Throwable {
        rig.push("orders", "only", 1);
        RecordingContext context = rig.context(2);
        context.register(0, 1);
        QueenSplitEnumerator enumerator = rig.start(rig.config(b -> {}), context, QueenEnumState.empty());
        enumerator.addReader(0);
        enumerator.addReader(1);

        context.leaseRound();
        context.discoveryRun();

        int idle = 1 - SplitOwners.ownerOf("orders", "only", 2);
        assertThat(context.splitsOf(idle)).isEmpty();
        List<PassCompleted> passes = context.eventsOf(idle, PassCompleted.class);
        assertThat(passes).hasSize(1);
        assertThat(passes.get(0).lastOffsets()).isEmpty();
    }

    @Test
    void splitsWaitForTheirReaderAndSplitsGivenBackGoToItAgain() throws Throwable {
        for (int p = 0; p < 12; p++) {
            rig.push("orders", "p" + p, 1);
        }
        RecordingContext context = rig.context(2);
        context.register(0);
        QueenSplitEnumerator enumerator = rig.start(rig.config(b -> {}), context, QueenEnumState.empty());
        enumerator.addReader(0);
        context.leaseRound();
        context.discoveryRun();
        assertThat(context.splitsOf(1)).isEmpty();
        int waiting = 12 - context.splitsOf(0).size();
        assertThat(waiting).isPositive();
        assertThat(enumerator.snapshotState(1).pendingSplits()).hasSize(waiting);

        context.register(1);
        enumerator.addReader(1);
        assertThat(context.splitsOf(1)).hasSize(waiting);

        List<PartitionSplit> back = new ArrayList<>(context.splitsOf(1));
        context.unregisterReader(1);
        enumerator.addSplitsBack(back, 1);
        context.discoveryRun();
        assertThat(context.eventsOf(0, PassCompleted.class).get(1).lastOffsets()).hasSize(12 - waiting);
        context.register(1);
        enumerator.addReader(1);
        assertThat(context.splitsOf(1)).hasSize(2 * waiting).containsAll(back);
    }

    @Test
    void theFirstPassIsFullAndTheNextOnesAreIncremental() throws Throwable {
        rig.push("orders", "p", 1);
        RecordingContext context = rig.context(1);
        context.register(0);
        QueenSplitEnumerator enumerator = rig.start(rig.config(b -> {}), context, QueenEnumState.empty());
        enumerator.addReader(0);
        context.leaseRound();
        assertThat(enumerator.nextDiscoveryInput().fullQueues()).containsExactly("orders");

        context.discoveryRun();

        DiscoveryInput next = enumerator.nextDiscoveryInput();
        assertThat(next.fullQueues()).isEmpty();
        assertThat(next.incrementalQueues()).containsExactly("orders");
        assertThat(next.sinceMicros()).hasValue(enumerator.lastSafeTimeMicros() - 2_000_000L);
    }

    @Test
    void everyThirtiethPassSweepsInFull() throws Throwable {
        RecordingContext context = rig.context(1);
        context.register(0);
        QueenSplitEnumerator enumerator = rig.start(rig.config(b -> {}), context, QueenEnumState.empty());
        enumerator.addReader(0);
        context.leaseRound();
        List<Long> fullAt = new ArrayList<>();
        for (int run = 0; run < 31; run++) {
            if (!enumerator.nextDiscoveryInput().fullQueues().isEmpty()) {
                fullAt.add(enumerator.completePasses());
            }
            context.discoveryRun();
        }
        assertThat(fullAt).containsExactly(0L, 30L);
    }

    @Test
    void aRestoreKeepsAssignedSplitsWithTheirReadersAndAssignsOnlyWhatIsNew() throws Throwable {
        rig.push("orders", "a", 2);
        rig.push("orders", "b", 2);
        RecordingContext context = rig.context(2);
        context.register(0, 1);
        QueenSourceConfig config = rig.config(b -> {});
        QueenSplitEnumerator enumerator = rig.start(config, context, QueenEnumState.empty());
        enumerator.addReader(0);
        enumerator.addReader(1);
        context.leaseRound();
        context.discoveryRun();
        QueenEnumState state = enumerator.snapshotState(7);
        enumerator.close();

        rig.push("orders", "c", 1);
        RecordingContext after = rig.context(2);
        after.register(0, 1);
        QueenSplitEnumerator restored = rig.start(config, after, state);
        restored.addReader(0);
        restored.addReader(1);
        after.leaseRound();
        after.discoveryRun();

        assertThat(after.allSplits()).extracting(PartitionSplit::partition).containsExactly("c");
        Set<String> reported = new HashSet<>();
        for (int r = 0; r < 2; r++) {
            reported.addAll(after.eventsOf(r, PassCompleted.class).get(0).lastOffsets().keySet());
        }
        assertThat(reported).hasSize(3);
    }

    /** An enumerator of every queue ({@code *}) started over two queues, orders and events, with reader 0 added. */
    private QueenSplitEnumerator everyQueueOfTwo(RecordingContext context) throws Throwable {
        rig.push("orders", "a", 1);
        rig.push("events", "b", 1);
        context.register(0);
        QueenSplitEnumerator enumerator = rig.start(rig.config(b -> b.queues("*")), context, QueenEnumState.empty());
        enumerator.addReader(0);
        return enumerator;
    }

    @Test
    void withEveryQueueAQueueWhoseKeysCannotFitInS3IsSkippedWithOneWarningAndTheOthersRun() throws Throwable {
        String tooLong = "\uD83D\uDE00".repeat(90); // escaped 1080 bytes: every key of it over 1024
        rig.push("orders", "a", 1);
        rig.push(tooLong, "b", 1);
        RecordingContext context = rig.context(1);
        context.register(0);
        KeyBudget keys = KeyBudget.of(Prefix.DEFAULT, EnumeratorRig.TENANT, Layout.MERGED, "jsonl.zst");
        try (CapturedLog log = CapturedLog.of(WantedQueues.class)) {
            QueenSplitEnumerator enumerator = rig.start(rig.config(b -> b.queues("*").keyBudget(keys)), context,
                    QueenEnumState.empty());
            enumerator.addReader(0);
            for (int round = 0; round < 3; round++) {
                context.leaseRound();
                context.discoveryRun();
            }
            assertThat(enumerator.queueStatus()).containsOnlyKeys("orders");
            assertThat(context.allSplits()).extracting(PartitionSplit::queue).containsExactly("orders");
            assertThat(log.lines()).filteredOn(l -> l.startsWith("WARN")).singleElement().asString()
                    .startsWith("WARN QUEEN_S3_QUEUES=*: skipping queue '" + tooLong + "' cannot be mirrored:")
                    .contains("over S3's limit of 1024").endsWith("the other queues go on");
        }
    }

    @Test
    void withEveryQueueTheListingComesFirstAndNoPassGoesOutBeforeItsLeasesAreDecided() throws Throwable {
        RecordingContext context = rig.context(1);
        QueenSplitEnumerator enumerator = everyQueueOfTwo(context);

        context.leaseRound();
        context.discoveryRun();
        assertThat(enumerator.queueStatus()).containsOnlyKeys("orders", "events");
        assertThat(context.eventsOf(0, PassCompleted.class)).as("no pass while leases are undecided").isEmpty();

        context.leaseRound();
        context.discoveryRun();
        assertThat(context.allSplits()).extracting(PartitionSplit::queue).containsExactlyInAnyOrder("orders", "events");
        assertThat(context.eventsOf(0, PassCompleted.class)).singleElement()
                .satisfies(p -> assertThat(p.lastOffsets()).hasSize(2));
    }

    @Test
    void withEveryQueueAListedQueueIsLeasedAndDiscoveredAtOnceNotALeaseIntervalLater() throws Throwable {
        RecordingContext context = rig.context(1);
        QueenSplitEnumerator enumerator = everyQueueOfTwo(context);

        context.leaseRound(); // nothing wanted yet
        context.discoveryRun(); // the listing
        assertThat(context.oneShotCalls()).as("a lease round for the listed queues, then a discovery run").isEqualTo(2);

        assertThat(context.allSplits()).extracting(PartitionSplit::queue).containsExactlyInAnyOrder("orders", "events");
        assertThat(context.eventsOf(0, PassCompleted.class)).singleElement()
                .satisfies(p -> assertThat(p.lastOffsets()).hasSize(2));

        for (int run = 0; run < QueenSplitEnumerator.RELIST_EVERY; run++) {
            context.discoveryRun(); // among them a listing of the same queues: no lease round of its own
        }
        assertThat(context.oneShotCalls()).isZero();
    }

    private static int indexOfFirst(List<RecordingContext.Delivered> got, Class<?> type) {
        for (int i = 0; i < got.size(); i++) {
            if (type.isInstance(got.get(i).event())) {
                return i;
            }
        }
        return -1;
    }
}
