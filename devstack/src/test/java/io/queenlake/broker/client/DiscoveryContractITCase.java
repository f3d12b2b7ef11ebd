package io.queenlake.broker.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.devstack.broker.DevBroker;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Broker contract: partitions/changed paging, cursors, since, incarnations and safeTime. */
class DiscoveryContractITCase {

    private static BrokerTarget target;

    @BeforeAll
    static void start() throws Exception {
        target = BrokerTarget.fromEnvironment();
    }

    @AfterAll
    static void stop() {
        target.close();
    }

    private static ChangedEntry page(ChangedQuery query) {
        return target.client().partitionsChanged(List.of(query)).entries().get(0);
    }

    @Test
    void noEntriesAnswerSafeTimeAlone() {
        ChangedPage page = target.client().partitionsChanged(List.of());
        assertThat(page.entries()).isEmpty();
        assertThat(page.safeTimeMicros()).isPositive();
        assertThat(page.safeTimeDegraded()).isFalse();
    }

    @Test
    void partitionsComeInCreationOrderAndNextIsSetExactlyWhenThePageIsFull() {
        String queue = BrokerTarget.uniqueQueue("paging");
        for (String partition : List.of("p-c", "p-a", "p-b")) {
            target.push(queue, partition, "1");
        }
        ChangedEntry first = page(ChangedQuery.firstPage(queue, 2));
        assertThat(first.partitions()).extracting(PartitionInfo::name).containsExactly("p-c", "p-a");
        assertThat(first.next()).isPresent();
        ChangedEntry second = page(ChangedQuery.firstPage(queue, 2).after(first.next().get()));
        assertThat(second.partitions()).extracting(PartitionInfo::name).containsExactly("p-b");
        assertThat(second.next()).isEmpty();

        ChangedEntry exactlyFull = page(ChangedQuery.firstPage(queue, 3));
        assertThat(exactlyFull.partitions()).hasSize(3);
        assertThat(exactlyFull.next()).isPresent();
        ChangedEntry afterFull = page(ChangedQuery.firstPage(queue, 3).after(exactlyFull.next().get()));
        assertThat(afterFull.partitions()).isEmpty();
        assertThat(afterFull.next()).isEmpty();
        assertThat(afterFull.error()).isEqualTo(EntryError.NONE);
    }

    @Test
    void aCursorTheBrokerDidNotIssueIsABadCursor() {
        String queue = BrokerTarget.uniqueQueue("cursor");
        target.push(queue, "p", "1");
        ChangedEntry entry = page(ChangedQuery.firstPage(queue, 10).after("n|p"));
        assertThat(entry.error()).isEqualTo(EntryError.BAD_CURSOR);
        assertThat(entry.partitions()).isEmpty();
        assertThat(entry.next()).isEmpty();
    }

    @Test
    void anUnknownQueueIsAnEntryErrorBesideTheOthers() {
        String queue = BrokerTarget.uniqueQueue("known");
        target.push(queue, "p", "1");
        ChangedPage page = target.client().partitionsChanged(List.of(
                ChangedQuery.firstPage("ghost-" + queue, 10), ChangedQuery.firstPage(queue, 10)));
        assertThat(page.entries().get(0).error()).isEqualTo(EntryError.UNKNOWN_TOPIC_OR_PARTITION);
        assertThat(page.entries().get(1).partitions()).extracting(PartitionInfo::name).containsExactly("p");
    }

    @Test
    void aPartitionReportsItsLastOffsetLogStartAndLastWrite() {
        String queue = BrokerTarget.uniqueQueue("info");
        target.push(queue, "p", "1", "2");
        target.push(queue, "p", "3");
        long lastStamp = target.readAll(queue, "p", 0).get(2).tsMicros();
        PartitionInfo info = page(ChangedQuery.firstPage(queue, 10)).partitions().get(0);
        assertThat(info.lastOffset()).isEqualTo(2);
        assertThat(info.logStart()).isZero();
        assertThat(info.lastWriteAtMicros()).isEqualTo(lastStamp);
        assertThat(info.id()).isNotEmpty();
    }

    @Test
    void sinceListsOnlyPartitionsWrittenAtOrAfterIt() throws Exception {
        String queue = BrokerTarget.uniqueQueue("since");
        target.push(queue, "old", "1");
        target.passTime(Duration.ofMillis(20));
        target.push(queue, "new", "1");
        long newStamp = target.readAll(queue, "new", 0).get(0).tsMicros();
        ChangedEntry entry = page(new ChangedQuery(queue, OptionalLong.of(newStamp), Optional.empty(), 10));
        assertThat(entry.partitions()).extracting(PartitionInfo::name).containsExactly("new");
    }

    @Test
    void everyRecordAtOrBelowSafeTimeIsListedAndReadable() {
        String queue = BrokerTarget.uniqueQueue("covered");
        target.push(queue, "p", "1", "2");
        ChangedPage page = target.client().partitionsChanged(List.of(ChangedQuery.firstPage(queue, 10)));
        PartitionInfo info = page.entries().get(0).partitions().get(0);
        assertThat(info.lastWriteAtMicros()).isLessThanOrEqualTo(page.safeTimeMicros());
        assertThat(target.readAll(queue, "p", 0)).hasSize((int) info.lastOffset() + 1);
    }

    @Test
    void aPassWalksEveryPageAndAPartitionCreatedAfterItIsStampedAboveItsSafeTime() {
        String queue = BrokerTarget.uniqueQueue("pass");
        for (int i = 0; i < 5; i++) {
            target.push(queue, "p" + i, "1");
        }
        ChangedPass pass = ChangedPassWalker.walk(target.client(), List.of(queue), OptionalLong.empty(), 2);
        assertThat(pass.partitions().get(queue)).extracting(PartitionInfo::name).containsExactly("p0", "p1", "p2", "p3", "p4");
        assertThat(pass.calls()).isEqualTo(3);

        target.push(queue, "late", "1");
        assertThat(target.readAll(queue, "late", 0).get(0).tsMicros()).isGreaterThan(pass.safeTimeMicros());
    }

    @Test
    void aRecreatedPartitionIsANewIncarnationFromOffsetZero() {
        DevBroker dev = target.devOnly("deleting a partition needs the dev broker's deletePartition hook");
        String queue = BrokerTarget.uniqueQueue("incarnation");
        target.push(queue, "p", "1", "2", "3");
        String firstId = page(ChangedQuery.firstPage(queue, 10)).partitions().get(0).id();

        dev.deletePartition(BrokerTarget.DEFAULT_TENANT, queue, "p");
        List<PushResult> pushed = target.push(queue, "p", "\"again\"");

        assertThat(pushed.get(0).offset()).isZero();
        PartitionInfo reborn = page(ChangedQuery.firstPage(queue, 10)).partitions().get(0);
        assertThat(reborn.id()).isNotEqualTo(firstId);
        assertThat(reborn.lastOffset()).isZero();
        assertThat(target.readAll(queue, "p", 0)).extracting(FetchedRecord::payloadText).containsExactly("\"again\"");
    }
}
