package io.queenlake.source.reader;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A split's ask follows its partition's bytes per window of broker time, counted over whole pushes. */
class FetchBudgetTest {

    private static final long WINDOW_MS = 1_000;

    /** One push: {@code records} records of {@code bytes} payload bytes, all stamped {@code tsMicros}. */
    private static void push(FetchBudget budget, long tsMicros, int records, int bytes) {
        for (int i = 0; i < records; i++) {
            budget.read(tsMicros, bytes);
        }
    }

    @Test
    void theFirstAskIsSmallBeforeAnythingWasRead() {
        assertThat(new FetchBudget(WINDOW_MS).bytes()).isEqualTo(16 * 1024);
    }

    @Test
    void afterReadingPushesItAsksForHalfAWindowOfThem() {
        FetchBudget budget = new FetchBudget(WINDOW_MS);
        // 10 KB every 200 ms of broker time: 50 KB a window, so 25 KB an ask.
        push(budget, 0, 10, 1_000);
        push(budget, 200_000, 10, 1_000);
        push(budget, 400_000, 5, 1_000); // the answer ended inside this push
        budget.answered(true);
        assertThat(budget.bytes()).isEqualTo(25_000);

        push(budget, 400_000, 5, 1_000); // the rest of it
        push(budget, 600_000, 10, 1_000);
        push(budget, 800_000, 10, 1_000);
        budget.answered(false); // the end of the log: the last push is whole
        assertThat(budget.bytes()).as("a push split over two answers counts whole").isEqualTo(25_000);
    }

    @Test
    void aPushLargerThanTheAskDoublesItUntilALaterStampShowsUp() {
        FetchBudget budget = new FetchBudget(WINDOW_MS);
        push(budget, 0, 20, 1_000);
        budget.answered(true);
        assertThat(budget.bytes()).isEqualTo(32 * 1024);
        push(budget, 0, 30, 1_000);
        budget.answered(true);
        assertThat(budget.bytes()).isEqualTo(64 * 1024);
    }

    @Test
    void aSparsePartitionStillAsksForSeveralRecordsAndADenseOneForAtMostOneMebibyte() {
        FetchBudget sparse = new FetchBudget(WINDOW_MS);
        push(sparse, 0, 1, 300);
        push(sparse, 60_000_000, 1, 300); // one record a minute
        sparse.answered(false);
        assertThat(sparse.bytes()).isEqualTo(4 * 1024);

        FetchBudget dense = new FetchBudget(WINDOW_MS);
        push(dense, 0, 1, 1_000);
        push(dense, 1_000, 100, 1_000); // 100 KB a millisecond
        push(dense, 2_000, 1, 1_000);
        dense.answered(true);
        assertThat(dense.bytes()).isEqualTo(1 << 20);
    }
}
