package io.queenlake.source.enumerator;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.source.event.PassCompleted;
import io.queenlake.source.event.PassCompleted.PassPartition;
import io.queenlake.source.event.PassListing;
import io.queenlake.source.event.PassUpdate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A pass tells each reader only the rows that changed, and the reader's listing rebuilt from those
 * updates is every pass exactly the listing the enumerator holds.
 */
class PassListingsTest {

    private static PassPartition row(String partition, String id, long lastOffset) {
        return new PassPartition(partition, id, lastOffset, 0, Long.MIN_VALUE, "", -1);
    }

    @Test
    void aPassThatMovesOnePartitionOfFiveThousandQueuesCarriesOneRow() {
        Map<String, List<PassPartition>> listing = new HashMap<>();
        for (int q = 0; q < 5_000; q++) {
            List<PassPartition> rows = new ArrayList<>();
            for (int p = 0; p < 10; p++) {
                rows.add(row("p" + p, "id", 0));
            }
            listing.put("q" + q, rows);
        }
        PassListings listings = new PassListings();
        assertThat(listings.update(0, 1, listing).rows()).as("the first pass: the whole listing").isEqualTo(50_000);

        List<PassPartition> moved = new ArrayList<>(listing.get("q42"));
        moved.set(3, row("p3", "id", 7));
        listing.put("q42", moved);
        PassUpdate next = listings.update(0, 2, listing);

        assertThat(next.rows()).isEqualTo(1);
        assertThat(next.changed()).containsOnlyKeys("q42");
        assertThat(listings.update(0, 3, listing).rows()).as("nothing moved").isZero();
        listings.forget(0);
        assertThat(listings.update(0, 4, listing).isFull()).as("a reader registered again").isTrue();
    }

    @Test
    void everyPassRebuiltByTheReaderEqualsTheEnumeratorsListing() {
        Random random = new Random(7);
        PassListings listings = new PassListings();
        PassListing reader = new PassListing();
        Map<String, Map<String, PassPartition>> truth = new HashMap<>();
        for (int pass = 1; pass <= 300; pass++) {
            for (int change = random.nextInt(6); change > 0; change--) {
                String queue = "q" + random.nextInt(8);
                String partition = "p" + random.nextInt(5);
                switch (random.nextInt(5)) {
                    case 0 -> truth.remove(queue);
                    case 1 -> truth.computeIfAbsent(queue, q -> new HashMap<>());
                    case 2 -> truth.computeIfPresent(queue, (q, rows) -> {
                        rows.remove(partition);
                        return rows;
                    });
                    case 3 -> truth.computeIfAbsent(queue, q -> new HashMap<>())
                            .put(partition, row(partition, "id-" + pass, -1)); // a new incarnation
                    default -> truth.computeIfAbsent(queue, q -> new HashMap<>())
                            .compute(partition, (p, r) -> row(p, r == null ? "id" : r.partitionId(),
                                    (r == null ? 0 : r.lastOffset()) + 1));
                }
            }
            Map<String, List<PassPartition>> now = new HashMap<>();
            truth.forEach((q, rows) -> now.put(q, List.copyOf(rows.values())));

            PassCompleted rebuilt = reader.apply(listings.update(0, pass, now)).orElseThrow();

            assertThat(rebuilt.safeTimeMicros()).isEqualTo(pass);
            assertThat(asSets(rebuilt.queues())).as("pass %d", pass).isEqualTo(asSets(now));
        }
    }

    private static Map<String, HashSet<PassPartition>> asSets(Map<String, List<PassPartition>> listing) {
        Map<String, HashSet<PassPartition>> sets = new HashMap<>();
        listing.forEach((q, rows) -> sets.put(q, new HashSet<>(rows)));
        return sets;
    }
}
