package io.queenlake.broker.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Broker contract: fetch bounds, budgets, errors and long polls; fetch/offsets. */
class FetchContractITCase {

    private static final int MIB = 1 << 20;
    private static BrokerTarget target;

    @BeforeAll
    static void start() throws Exception {
        target = BrokerTarget.fromEnvironment();
    }

    @AfterAll
    static void stop() {
        target.close();
    }

    private static QueenClient client() {
        return target.client();
    }

    /** A JSON string payload of exactly {@code bytes} bytes, quotes included. */
    private static String payloadOf(int bytes) {
        return "\"" + "x".repeat(bytes - 2) + "\"";
    }

    @Test
    void anEmptyFetchAnswersNoEntries() {
        assertThat(client().fetch(FetchRequest.immediate(List.of()))).isEmpty();
    }

    @Test
    void moreThan1024EntriesAreRefusedWhole() {
        String queue = BrokerTarget.uniqueQueue("many");
        List<FetchEntry> entries = IntStream.range(0, 1025).mapToObj(i -> FetchEntry.of(queue, "p" + i, 0, 1)).toList();
        QueenException e = catchThrowableOfType(() -> client().fetch(FetchRequest.immediate(entries)), QueenException.class);
        assertThat(e.status()).isEqualTo(400);
        assertThat(e.brokerError()).hasValue("too many entries");
        assertThat(e.retriable()).isFalse();
        assertThat(client().fetch(FetchRequest.immediate(entries.subList(0, 1024)))).hasSize(1024);
    }

    @Test
    void aNegativeOffsetRefusesTheWholeRequest() {
        String queue = BrokerTarget.uniqueQueue("negative");
        target.push(queue, "p", "1");
        QueenException e = catchThrowableOfType(() -> client().fetch(FetchRequest.immediate(List.of(
                FetchEntry.of(queue, "p", 0, MIB), FetchEntry.of(queue, "p", -1, MIB)))), QueenException.class);
        assertThat(e.status()).isEqualTo(400);
        assertThat(e.retriable()).isFalse();
    }

    @Test
    void aNumericPartitionIsItsDecimalNameAndAnAbsentOneIsDefault() throws Exception {
        String queue = BrokerTarget.uniqueQueue("names");
        target.push(queue, "7", "\"seven\"");
        target.push(queue, "Default", "\"default\"");
        BrokerTarget.RawAnswer answer = target.raw("/api/v1/fetch", "{\"entries\":["
                + "{\"queue\":\"" + queue + "\",\"partition\":7,\"offset\":0},"
                + "{\"queue\":\"" + queue + "\",\"offset\":0}]}");
        assertThat(answer.status()).isEqualTo(200);
        List<FetchedPartition> read = FetchDecoder.decode(answer.body().getBytes(StandardCharsets.UTF_8), List.of(
                FetchEntry.withDefaultBudget(queue, "7", 0), FetchEntry.withDefaultBudget(queue, "Default", 0)));
        assertThat(read.get(0).records().get(0).payloadText()).isEqualTo("\"seven\"");
        assertThat(read.get(1).records().get(0).payloadText()).isEqualTo("\"default\"");
    }

    @Test
    void maxBytesCountsPayloadBytesAndTheFirstRecordIsAlwaysDelivered() {
        String queue = BrokerTarget.uniqueQueue("budget");
        target.push(queue, "p", payloadOf(10), payloadOf(10), payloadOf(10));
        assertThat(target.read(queue, "p", 0, 1).records()).hasSize(1);
        assertThat(target.read(queue, "p", 0, 19).records()).hasSize(1);
        assertThat(target.read(queue, "p", 0, 20).records()).hasSize(2);
        assertThat(target.read(queue, "p", 0, 29).records()).hasSize(2);
        assertThat(target.read(queue, "p", 0, 30).records()).hasSize(3);
        assertThat(target.read(queue, "p", 1, 0).records()).extracting(FetchedRecord::offset).containsExactly(1L);
    }

    @Test
    void theDefaultBudgetIsOneMebibyte() {
        String queue = BrokerTarget.uniqueQueue("default-budget");
        target.push(queue, "p", payloadOf(MIB / 2), payloadOf(MIB / 2), payloadOf(2));
        FetchedPartition read = client().fetch(FetchRequest.immediate(List.of(
                FetchEntry.withDefaultBudget(queue, "p", 0)))).get(0);
        assertThat(read.records()).hasSize(2);
    }

    @Test
    void theBudgetIsClampedToEightMebibytes() {
        String queue = BrokerTarget.uniqueQueue("clamp");
        String mebibyte = payloadOf(MIB);
        target.push(queue, "p", Collections.nCopies(9, mebibyte).toArray(String[]::new));
        FetchedPartition read = target.read(queue, "p", 0, Integer.MAX_VALUE);
        assertThat(read.records()).hasSize(8);
        assertThat(read.records().get(7).payload()).hasSize(MIB);
    }

    @Test
    void anEntryCarriesAtMostTenThousandRecords() {
        String queue = BrokerTarget.uniqueQueue("ten-k");
        List<PushItem> items = new ArrayList<>();
        for (int i = 0; i < 10_050; i++) {
            items.add(new PushItem(queue, "p", java.util.Optional.empty(), RawJson.of(Integer.toString(i))));
        }
        client().push(items);
        FetchedPartition first = target.read(queue, "p", 0, 8 * MIB);
        assertThat(first.records()).hasSize(10_000);
        assertThat(first.records().get(9_999).payloadText()).isEqualTo("9999");
        assertThat(target.read(queue, "p", 10_000, 8 * MIB).records()).hasSize(50);
    }

    @Test
    void boundsAreLastOffsetPlusOneAndTheFirstStoredOffset() {
        String queue = BrokerTarget.uniqueQueue("bounds");
        target.push(queue, "p", "1", "2", "3");
        FetchedPartition read = target.read(queue, "p", 1, MIB);
        assertThat(read.highWatermark()).isEqualTo(3);
        assertThat(read.logStartOffset()).isZero();
        assertThat(read.records()).extracting(FetchedRecord::offset).containsExactly(1L, 2L);
    }

    @Test
    void readingAtTheHighWatermarkIsCaughtUpWithoutError() {
        String queue = BrokerTarget.uniqueQueue("caught-up");
        target.push(queue, "p", "1", "2");
        FetchedPartition read = target.read(queue, "p", 2, MIB);
        assertThat(read.caughtUp(2)).isTrue();
        assertThat(read.error()).isEqualTo(EntryError.NONE);
    }

    @Test
    void readingPastTheHighWatermarkIsOutOfRangeWithBothBounds() {
        String queue = BrokerTarget.uniqueQueue("past");
        target.push(queue, "p", "1", "2");
        FetchedPartition read = target.read(queue, "p", 3, MIB);
        assertThat(read.error()).isEqualTo(EntryError.OFFSET_OUT_OF_RANGE);
        assertThat(read.records()).isEmpty();
        assertThat(read.highWatermark()).isEqualTo(2);
        assertThat(read.logStartOffset()).isZero();
    }

    @Test
    void anUnknownQueueIsUnknownTopicOrPartition() {
        FetchedPartition read = target.read(BrokerTarget.uniqueQueue("never-pushed"), "p", 0, MIB);
        assertThat(read.error()).isEqualTo(EntryError.UNKNOWN_TOPIC_OR_PARTITION);
        assertThat(read.highWatermark()).isZero();
        assertThat(read.logStartOffset()).isZero();
    }

    @Test
    void aNeverWrittenPartitionOfAnExistingQueueIsEmptyNotAnError() {
        String queue = BrokerTarget.uniqueQueue("lanes");
        target.push(queue, "written", "1");
        FetchedPartition read = target.read(queue, "never", 0, MIB);
        assertThat(read.error()).isEqualTo(EntryError.NONE);
        assertThat(read.records()).isEmpty();
        assertThat(read.highWatermark()).isZero();
        assertThat(read.logStartOffset()).isZero();
        assertThat(target.read(queue, "never", 1, MIB).error()).isEqualTo(EntryError.OFFSET_OUT_OF_RANGE);
    }

    @Test
    void answersComeInRequestOrder() {
        String queue = BrokerTarget.uniqueQueue("order");
        target.push(queue, "a", "\"a\"");
        target.push(queue, "b", "\"b0\"", "\"b1\"");
        List<FetchedPartition> read = client().fetch(FetchRequest.immediate(List.of(
                FetchEntry.of(queue, "b", 1, MIB), FetchEntry.of("ghost-" + queue, "x", 0, MIB), FetchEntry.of(queue, "a", 0, MIB))));
        assertThat(read).extracting(FetchedPartition::partition).containsExactly("b", "x", "a");
        assertThat(read.get(0).records().get(0).payloadText()).isEqualTo("\"b1\"");
        assertThat(read.get(1).error()).isEqualTo(EntryError.UNKNOWN_TOPIC_OR_PARTITION);
        assertThat(read.get(2).records().get(0).payloadText()).isEqualTo("\"a\"");
    }

    @Test
    void aLongPollReturnsAsSoonAsARecordArrives() throws Exception {
        String queue = BrokerTarget.uniqueQueue("long-poll");
        target.push(queue, "p", "0");
        long started = System.nanoTime();
        CompletableFuture<List<FetchedPartition>> waiting = client().fetchAsync(new FetchRequest(
                List.of(new FetchEntry(queue, "p", 1, OptionalInt.of(MIB))), 20_000, 1));
        target.push(queue, "p", "\"arrived\"");
        List<FetchedPartition> read = waiting.get(15, TimeUnit.SECONDS);
        assertThat(read.get(0).records()).extracting(FetchedRecord::payloadText).containsExactly("\"arrived\"");
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(15));
    }

    @Test
    void aLongPollWithNothingToReadEndsAtItsDeadline() {
        String queue = BrokerTarget.uniqueQueue("long-poll-idle");
        target.push(queue, "p", "0");
        long started = System.nanoTime();
        List<FetchedPartition> read = client().fetch(new FetchRequest(
                List.of(new FetchEntry(queue, "p", 1, OptionalInt.of(MIB))), 300, 1));
        assertThat(read.get(0).caughtUp(1)).isTrue();
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(250));
    }

    @Test
    void fetchOffsetsFindsTheFirstAppendStampedAtOrAfterAMillisecond() throws Exception {
        String queue = BrokerTarget.uniqueQueue("offsets");
        target.push(queue, "p", "\"a0\"", "\"a1\"");
        target.passTime(Duration.ofMillis(20));
        target.push(queue, "p", "\"b2\"");
        target.passTime(Duration.ofMillis(20));
        target.push(queue, "p", "\"c3\"");
        List<FetchedRecord> records = target.readAll(queue, "p", 0);
        long secondAppend = records.get(2).tsMicros();

        List<OffsetAnswer> answers = client().fetchOffsets(List.of(
                new OffsetQuery(queue, "p", Math.floorDiv(secondAppend, 1000)),
                new OffsetQuery(queue, "p", 0),
                new OffsetQuery(queue, "p", Math.floorDiv(records.get(3).tsMicros(), 1000) + 60_000),
                new OffsetQuery("ghost-" + queue, "p", 0)));

        assertThat(answers.get(0).offset()).hasValue(2);
        assertThat(answers.get(0).tsMicros()).hasValue(secondAppend);
        assertThat(answers.get(0).highWatermark()).isEqualTo(4);
        assertThat(answers.get(1).offset()).hasValue(0);
        assertThat(answers.get(2).offset()).isEmpty();
        assertThat(answers.get(2).tsMicros()).isEmpty();
        assertThat(answers.get(2).highWatermark()).isEqualTo(4);
        assertThat(answers.get(3).error()).isEqualTo(EntryError.UNKNOWN_TOPIC_OR_PARTITION);
    }

    @Test
    void fetchOffsetsAcceptsAnIsoTime() throws Exception {
        String queue = BrokerTarget.uniqueQueue("offsets-iso");
        target.push(queue, "p", "1");
        BrokerTarget.RawAnswer answer = target.raw("/api/v1/fetch/offsets", "{\"entries\":[{\"queue\":\"" + queue
                + "\",\"partition\":\"p\",\"timestamp\":\"2000-01-01T00:00:00Z\"}]}");
        assertThat(answer.status()).isEqualTo(200);
        List<OffsetAnswer> read = OffsetsDecoder.decode(answer.body().getBytes(StandardCharsets.UTF_8),
                List.of(new OffsetQuery(queue, "p", 0)));
        assertThat(read.get(0).offset()).hasValue(0);
    }
}
