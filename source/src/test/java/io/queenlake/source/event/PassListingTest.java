package io.queenlake.source.event;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.source.event.PassCompleted.PassPartition;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A reader's listing rebuilt from pass updates is the pass the enumerator would have sent whole. */
class PassListingTest {

    private static PassPartition row(String partition, long lastOffset) {
        return new PassPartition(partition, partition + "-id", lastOffset, 0, Long.MIN_VALUE, "", -1);
    }

    @Test
    void updatesApplyChangedRowsNewQueuesRemovedNamesAndUnlistedQueuesOnTheLastPass() {
        PassListing listing = new PassListing();
        PassCompleted first = listing.apply(PassUpdate.full(1, 10, Map.of(
                "orders", List.of(row("a", 1), row("b", 2)),
                "refunds", List.of(row("x", 0))))).orElseThrow();
        assertThat(first.queues().get("orders")).containsExactlyInAnyOrder(row("a", 1), row("b", 2));

        PassCompleted second = listing.apply(new PassUpdate(2, 1, 20,
                Map.of("orders", List.of(row("b", 5)), "payments", List.of()),
                Map.of("orders", Set.of("a")),
                Set.of("refunds"))).orElseThrow();

        assertThat(second.safeTimeMicros()).isEqualTo(20);
        assertThat(second.queues()).containsOnlyKeys("orders", "payments");
        assertThat(second.queues().get("orders")).containsExactly(row("b", 5));
        assertThat(second.queues().get("payments")).as("a queue listed without partitions yet").isEmpty();
        assertThat(first.queues()).as("a pass given out is never changed afterwards").containsKey("refunds");
    }

    @Test
    void anUpdateBasedOnOneNeverAppliedIsRefusedUntilTheWholeListingComes() {
        PassListing listing = new PassListing();
        listing.apply(PassUpdate.full(1, 10, Map.of("orders", List.of(row("a", 1)))));

        assertThat(listing.apply(new PassUpdate(3, 2, 30, Map.of("orders", List.of(row("a", 9))), Map.of(), Set.of())))
                .as("update 2 never arrived").isEmpty();
        assertThat(listing.applied()).isEqualTo(1);

        PassCompleted whole = listing.apply(PassUpdate.full(1, 40, Map.of("orders", List.of(row("a", 9))))).orElseThrow();
        assertThat(whole.queues().get("orders")).containsExactly(row("a", 9));
    }
}
