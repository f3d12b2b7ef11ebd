package io.queenlake.source.enumerator;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.format.key.KeyBudget;
import io.queenlake.format.key.Prefix;
import io.queenlake.format.model.Layout;
import io.queenlake.source.QueenSourceConfig;
import io.queenlake.source.testlog.CapturedLog;
import io.queenlake.source.event.ListingRequest;
import io.queenlake.source.event.PassCompleted;
import io.queenlake.source.event.PassUpdate;
import io.queenlake.source.split.PartitionSplit;
import io.queenlake.source.split.QueueSplit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
    void aQueueWithManyPartitionsIsOneSplitOnOneReaderAndAKnownPartitionMovingOnIsNoNewSplit() throws Throwable {
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

        QueueSplit split = context.allSplits().stream().collect(onlyElement());
        assertThat(split.queue()).isEqualTo("orders");
        assertThat(split.cut()).as("no checkpoint knew the queue").isEmpty();
        assertThat(split.partitions()).hasSize(24);
        assertThat(split.partitions().stream().map(PartitionSplit::partition).distinct()).hasSize(24);
        int owner = ownerOf(context, "orders");
        assertThat(owner).as("the first queue goes to its name's reader").isEqualTo(SplitOwners.ownerOf("orders", "", 3));
        assertThat(context.splitsOf(owner)).containsExactly(split);
        PassCompleted last = context.lastPass(owner);
        assertThat(last.queues()).containsOnlyKeys("orders");
        assertThat(last.queues().get("orders")).hasSize(24)
                .filteredOn(row -> row.partition().equals("cust-3")).singleElement()
                .satisfies(row -> assertThat(row.lastOffset()).isEqualTo(2));
        for (int r = 0; r < 3; r++) {
            if (r != owner) {
                assertThat(context.lastPass(r).queues()).as("reader %d holds no queue", r).isEmpty();
            }
        }
    }

    @Test
    void passesSendWhatChangedAndTheWholeListingToAReaderThatRegistersAgainOrAsks() throws Throwable {
        rig.push("orders", "a", 1);
        rig.push("orders", "b", 1);
        RecordingContext context = rig.context(1);
        context.register(0);
        QueenSplitEnumerator enumerator = rig.start(rig.config(b -> {}), context, QueenEnumState.empty());
        enumerator.addReader(0);
        context.leaseRound();
        context.discoveryRun();
        rig.push("orders", "b", 1);
        context.discoveryRun();
        context.discoveryRun();

        List<PassUpdate> updates = context.updatesTo(0);
        assertThat(updates.get(0).isFull()).isTrue();
        assertThat(updates.get(0).rows()).isEqualTo(2);
        assertThat(updates.subList(1, updates.size())).allSatisfy(u -> assertThat(u.isFull()).isFalse());
        assertThat(updates.stream().skip(1).mapToInt(PassUpdate::rows).sum()).as("only b moved, once").isEqualTo(1);

        enumerator.handleSourceEvent(0, new ListingRequest(updates.get(updates.size() - 1).sequence() - 1));
        context.discoveryRun();
        enumerator.addReader(0); // the reader restarted and registered again
        context.discoveryRun();

        List<PassUpdate> after = context.updatesTo(0).subList(updates.size(), context.updatesTo(0).size());
        assertThat(after).hasSize(2).allSatisfy(u -> assertThat(u.isFull()).as("%s", u).isTrue());
        assertThat(context.lastPass(0).queues().get("orders")).hasSize(2);
    }

    @Test
    void twoQueuesOnTwoReadersGoToDifferentReadersEvenWhenTheirNamesPickTheSameOne() throws Throwable {
        List<String> sameReader = namesOnOneReader(2);
        for (String queue : sameReader) {
            for (int p = 0; p < 5; p++) {
                rig.push(queue, "p" + p, 1);
            }
        }
        RecordingContext context = rig.context(2);
        context.register(0, 1);
        QueenSplitEnumerator enumerator = rig.start(rig.config(b -> b.queues(sameReader.toArray(String[]::new))),
                context, QueenEnumState.empty());
        enumerator.addReader(0);
        enumerator.addReader(1);

        context.leaseRound();
        context.oneShotCalls();
        context.discoveryRun();

        assertThat(context.allSplits()).extracting(QueueSplit::queue).containsExactlyInAnyOrderElementsOf(sameReader);
        assertThat(context.splitsOf(0)).singleElement().satisfies(s -> assertThat(s.partitions()).hasSize(5));
        assertThat(context.splitsOf(1)).singleElement().satisfies(s -> assertThat(s.partitions()).hasSize(5));
        for (int r = 0; r < 2; r++) {
            assertThat(context.lastPass(r).queues()).containsOnlyKeys(context.splitsOf(r).get(0).queue());
        }
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

        assertThat(context.allSplits()).singleElement().satisfies(s -> assertThat(s.partitions()).hasSize(4));
        assertThat(enumerator.completePasses()).isEqualTo(1);
        context.leaseRound(); // a lease kept is no reason to discover again
        assertThat(context.oneShotCalls()).isZero();
    }

    @Test
    void aReaderThatRegistersAfterThePassGetsItsSplitAndAPassAtOnceNotOneDiscoveryIntervalLater() throws Throwable {
        for (int p = 0; p < 3; p++) {
            rig.push("orders", "p" + p, 1);
        }
        RecordingContext context = rig.context(2);
        QueenSplitEnumerator enumerator = rig.start(rig.config(b -> {}), context, QueenEnumState.empty());
        context.leaseRound();
        context.oneShotCalls(); // the run on the won lease: its pass completes while no reader is registered
        assertThat(enumerator.completePasses()).isEqualTo(1);
        assertThat(context.allSplits()).isEmpty();

        context.register(0, 1);
        enumerator.addReader(0);
        enumerator.addReader(1);
        assertThat(context.oneShotCalls()).as("one run for both readers, no periodic run by hand").isEqualTo(1);

        int holder = context.splitsOf(0).isEmpty() ? 1 : 0;
        assertThat(context.to(holder)).as("the split, then a pass listing its queue")
                .hasSize(2)
                .satisfies(d -> assertThat(d.get(0).split().queue()).isEqualTo("orders"))
                .satisfies(d -> assertThat(((PassCompleted) d.get(1).event()).queues().get("orders")).hasSize(3));
        assertThat(context.lastPass(1 - holder).queues()).as("the other reader holds nothing").isEmpty();

        enumerator.addReader(holder); // the reader restarted: it hears its queue's pass at once again
        assertThat(context.oneShotCalls()).isEqualTo(1);
        assertThat(context.lastPass(holder).queues()).containsOnlyKeys("orders");
    }

    @Test
    void passCompletedFollowsTheAssignmentOfItsPassWithTheQueuesLastOffsetsToItsReaderOnly() throws Throwable {
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

        int owner = ownerOf(context, "orders");
        List<RecordingContext.Delivered> got = context.to(owner);
        int pass = indexOfFirst(got, PassCompleted.class);
        assertThat(pass).as("the owner got a pass").isGreaterThanOrEqualTo(0);
        assertThat(got.subList(0, pass)).as("the queue's split came before its first pass")
                .extracting(RecordingContext.Delivered::split).containsExactlyElementsOf(context.splitsOf(owner));
        PassCompleted completed = (PassCompleted) got.get(pass).event();
        Map<String, Long> reported = new HashMap<>();
        for (PassCompleted.PassPartition row : completed.queues().get("orders")) {
            reported.put(row.partition(), row.lastOffset());
            assertThat(row.replacedId()).isEmpty();
        }
        assertThat(reported).isEqualTo(pushedLast);
        assertThat(completed.queues()).containsOnlyKeys("orders");
        assertThat(completed.safeTimeMicros()).isEqualTo(enumerator.lastSafeTimeMicros());
        PassCompleted toTheOther = context.eventsOf(1 - owner, PassCompleted.class).get(0);
        assertThat(toTheOther.queues()).isEmpty();
        assertThat(toTheOther.safeTimeMicros()).isEqualTo(completed.safeTimeMicros());
    }

    @Test
    void aPartitionCreatedLaterReachesTheQueuesReaderInTheNextPassNotAsASplit() throws Throwable {
        rig.push("orders", "a", 2);
        RecordingContext context = rig.context(2);
        context.register(0, 1);
        QueenSplitEnumerator enumerator = rig.start(rig.config(b -> {}), context, QueenEnumState.empty());
        enumerator.addReader(0);
        enumerator.addReader(1);
        context.leaseRound();
        context.discoveryRun();
        int owner = ownerOf(context, "orders");

        rig.push("orders", "b", 3);
        context.discoveryRun();

        assertThat(context.allSplits()).as("no new split for a new partition").hasSize(1);
        assertThat(context.allSplits().get(0).partitions()).extracting(PartitionSplit::partition).containsExactly("a");
        PassCompleted.PassPartition b = context.lastPass(owner).queues().get("orders").stream()
                .filter(row -> row.partition().equals("b")).collect(onlyElement());
        assertThat(b.lastOffset()).isEqualTo(2);
        assertThat(b.startOffset()).as("found after the first pass: read from its log start").isZero();
        assertThat(b.skipBelowMicros()).isEqualTo(Long.MIN_VALUE);
        assertThat(b.replacedId()).isEmpty();
        assertThat(context.lastPass(1 - owner).queues()).isEmpty();
    }

    @Test
    void aNewIncarnationIsNoNewSplitButReachesTheOwnerInTheNextPassNamingTheOneItReplaced() throws Throwable {
        rig.push("orders", "a", 3);
        RecordingContext context = rig.context(2);
        context.register(0, 1);
        QueenSplitEnumerator enumerator = rig.start(rig.config(b -> {}), context, QueenEnumState.empty());
        enumerator.addReader(0);
        enumerator.addReader(1);
        context.leaseRound();
        context.discoveryRun();
        PartitionSplit first = context.allSplits().get(0).partitions().get(0);

        rig.broker.deletePartition(EnumeratorRig.TENANT, "orders", "a");
        rig.push("orders", "a", 2);
        context.discoveryRun();

        assertThat(context.allSplits()).hasSize(1);
        int owner = ownerOf(context, "orders");
        PassCompleted last = context.lastPass(owner);
        assertThat(last).isNotEqualTo(context.eventsOf(owner, PassCompleted.class).get(0));
        PassCompleted.PassPartition row = last.queues().get("orders").stream().collect(onlyElement());
        assertThat(row.partition()).isEqualTo("a");
        assertThat(row.partitionId()).isNotEqualTo(first.partitionId());
        assertThat(row.lastOffset()).isEqualTo(1);
        assertThat(row.startOffset()).isZero();
        assertThat(row.replacedId()).isEqualTo(first.partitionId());
        assertThat(row.replacedLastOffset()).isEqualTo(2);
    }

    @Test
    void aReaderWithoutQueuesGetsThePassWithNoQueues() throws Throwable {
        rig.push("orders", "only", 1);
        RecordingContext context = rig.context(2);
        context.register(0, 1);
        QueenSplitEnumerator enumerator = rig.start(rig.config(b -> {}), context, QueenEnumState.empty());
        enumerator.addReader(0);
        enumerator.addReader(1);

        context.leaseRound();
        context.discoveryRun();

        int idle = 1 - ownerOf(context, "orders");
        assertThat(context.splitsOf(idle)).isEmpty();
        List<PassCompleted> passes = context.eventsOf(idle, PassCompleted.class);
        assertThat(passes).hasSize(1);
        assertThat(passes.get(0).queues()).isEmpty();
    }

    @Test
    void splitsWaitForTheirReaderAndSplitsGivenBackGoToItAgain() throws Throwable {
        for (int p = 0; p < 3; p++) {
            rig.push("orders", "p" + p, 1);
            rig.push("events", "e" + p, 1);
        }
        RecordingContext context = rig.context(2);
        context.register(0);
        QueenSplitEnumerator enumerator = rig.start(rig.config(b -> b.queues("orders", "events")), context,
                QueenEnumState.empty());
        enumerator.addReader(0);
        context.leaseRound();
        context.discoveryRun();
        assertThat(context.splitsOf(0)).hasSize(1);
        assertThat(context.splitsOf(1)).isEmpty();
        String onZero = context.splitsOf(0).get(0).queue();
        List<QueueSplit> waiting = enumerator.snapshotState(1).pendingSplits();
        assertThat(waiting).singleElement().satisfies(s -> assertThat(s.queue()).isNotEqualTo(onZero));
        assertThat(context.lastPass(0).queues()).as("a waiting split's queue is in no pass").containsOnlyKeys(onZero);

        context.register(1);
        enumerator.addReader(1);
        assertThat(context.splitsOf(1)).containsExactlyElementsOf(waiting);

        List<QueueSplit> back = new ArrayList<>(context.splitsOf(1));
        context.unregisterReader(1);
        enumerator.addSplitsBack(back, 1);
        assertThat(enumerator.snapshotState(2).pendingSplits()).containsExactlyElementsOf(back);
        context.discoveryRun();
        assertThat(context.lastPass(0).queues()).containsOnlyKeys(onZero);
        context.register(1);
        enumerator.addReader(1);
        assertThat(context.splitsOf(1)).hasSize(2).containsAll(back);
        assertThat(enumerator.snapshotState(3).pendingSplits()).isEmpty();
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
    void aRestoreMakesNoSplitForAnAssignedQueueAndSendsItsPassesWithNewPartitionsToEveryReader() throws Throwable {
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

        assertThat(after.allSplits()).as("the queue's split is in its reader's restored state").isEmpty();
        for (int r = 0; r < 2; r++) {
            assertThat(after.eventsOf(r, PassCompleted.class).get(0).queues().get("orders"))
                    .as("which reader holds the queue is not known: every reader hears it")
                    .extracting(PassCompleted.PassPartition::partition).containsExactlyInAnyOrder("a", "b", "c");
        }
    }

    @Test
    void aSplitStillWaitingAtACheckpointIsAssignedAfterTheRestore() throws Throwable {
        rig.push("orders", "a", 2);
        RecordingContext context = rig.context(1);
        QueenSourceConfig config = rig.config(b -> {});
        QueenSplitEnumerator enumerator = rig.start(config, context, QueenEnumState.empty());
        context.leaseRound();
        context.discoveryRun(); // no reader registered: the split waits
        QueenEnumState state = enumerator.snapshotState(1);
        enumerator.close();
        assertThat(state.pendingSplits()).singleElement().satisfies(s -> assertThat(s.queue()).isEqualTo("orders"));

        RecordingContext after = rig.context(1);
        after.register(0);
        QueenSplitEnumerator restored = rig.start(config, after, state);
        restored.addReader(0);

        assertThat(after.allSplits()).containsExactlyElementsOf(state.pendingSplits());
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
            assertThat(context.allSplits()).extracting(QueueSplit::queue).containsExactly("orders");
            assertThat(log.lines()).filteredOn(l -> l.startsWith("WARN")).singleElement().asString()
                    .startsWith("WARN queen.s3.queues=*: skipping queue '" + tooLong + "' cannot be mirrored:")
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
        assertThat(context.allSplits()).extracting(QueueSplit::queue).containsExactlyInAnyOrder("orders", "events");
        assertThat(context.eventsOf(0, PassCompleted.class)).singleElement()
                .satisfies(p -> assertThat(p.queues()).containsOnlyKeys("orders", "events"));
    }

    @Test
    void withEveryQueueAListedQueueIsLeasedAndDiscoveredAtOnceNotALeaseIntervalLater() throws Throwable {
        RecordingContext context = rig.context(1);
        QueenSplitEnumerator enumerator = everyQueueOfTwo(context);

        context.leaseRound(); // nothing wanted yet
        context.discoveryRun(); // the listing
        assertThat(context.oneShotCalls()).as("a lease round for the listed queues, then a discovery run").isEqualTo(2);

        assertThat(context.allSplits()).extracting(QueueSplit::queue).containsExactlyInAnyOrder("orders", "events");
        assertThat(context.eventsOf(0, PassCompleted.class)).singleElement()
                .satisfies(p -> assertThat(p.queues()).containsOnlyKeys("orders", "events"));

        for (int run = 0; run < PassPlanner.RELIST_EVERY; run++) {
            context.discoveryRun(); // among them a listing of the same queues: no lease round of its own
        }
        assertThat(context.oneShotCalls()).isZero();
    }

    /** The reader the queue's split went to. */
    private static int ownerOf(RecordingContext context, String queue) {
        for (RecordingContext.Delivered d : context.sequence()) {
            if (d.split() != null && d.split().queue().equals(queue)) {
                return d.reader();
            }
        }
        throw new AssertionError("queue " + queue + " was never assigned");
    }

    /** Two queue names whose hash picks the same one of {@code readers} readers. */
    private static List<String> namesOnOneReader(int readers) {
        Map<Integer, String> first = new HashMap<>();
        for (int i = 0; ; i++) {
            String name = "queue-" + i;
            String other = first.putIfAbsent(SplitOwners.ownerOf(name, "", readers), name);
            if (other != null) {
                return List.of(other, name);
            }
        }
    }

    private static <T> java.util.stream.Collector<T, ?, T> onlyElement() {
        return java.util.stream.Collectors.collectingAndThen(java.util.stream.Collectors.toList(), list -> {
            assertThat(list).hasSize(1);
            return list.get(0);
        });
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
