package io.queenlake.source.enumerator;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SplitOwnersTest {

    @Test
    void theOwnerRuleNeverChangesAcrossReleases() {
        // Pinned: a restore with the same parallelism assumes every split is still with the reader this
        // rule names, so a changed rule would send pass offsets to the wrong readers.
        assertThat(SplitOwners.ownerOf("orders", "cust-1", 7)).isZero();
        assertThat(SplitOwners.ownerOf("orders", "cust-2", 7)).isEqualTo(3);
        assertThat(SplitOwners.ownerOf("orders", "caff\u00e8/\uD83D\uDE00", 7)).isZero();
        assertThat(SplitOwners.ownerOf("orders", "Default", 7)).isEqualTo(1);
        assertThat(SplitOwners.ownerOf("orders", "cust-1", 1)).isZero();
    }

    @Test
    void neighbouringPartitionNamesSpreadEvenlyOverReaders() {
        int readers = 8;
        int[] counts = new int[readers];
        for (int p = 0; p < 8_000; p++) {
            counts[SplitOwners.ownerOf("orders", "p-" + p, readers)]++;
        }
        for (int count : counts) {
            assertThat(count).isBetween(850, 1150);
        }
    }
}
