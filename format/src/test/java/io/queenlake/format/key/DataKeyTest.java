package io.queenlake.format.key;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.format.model.Align;
import org.junit.jupiter.api.Test;

class DataKeyTest {

    private static final String TENANT = "00000000-0000-0000-0000-000000000001";
    /** 2026-09-04T10:00:00Z and 10:05. */
    private static final long T10 = 1_788_516_000_000_000L;
    private static final long T1005 = 1_788_516_300_000_000L;

    @Test
    void aMergedKeyMatchesTheReferenceExample() {
        DataKey key = new DataKey(Prefix.DEFAULT, TENANT, "orders", Align.HOUR, 1842, T10, T1005, "jsonl.zst", null);
        assertThat(key.render()).isEqualTo("queen/tenant=00000000-0000-0000-0000-000000000001/queue=orders/"
                + "dt=2026-09-04/hour=10/w-0000001842-1788516000000000-1788516300000000.jsonl.zst");
    }

    @Test
    void aPerPartitionKeyNamesThePartitionAndItsOffsets() {
        DataKey key = new DataKey(Prefix.DEFAULT, TENANT, "orders", Align.HOUR, 1, T10, T1005, "jsonl.zst",
                new DataKey.PartitionSlice("cust-0", 0, 3));
        assertThat(key.fileName())
                .isEqualTo("w-0000000001-1788516000000000-1788516300000000-p-cust-0-000000000000-000000000003.jsonl.zst");
    }

    @Test
    void dayAlignmentDropsTheHourDirectoryAndNoneKeepsIt() {
        DataKey day = new DataKey(Prefix.DEFAULT, TENANT, "q", Align.DAY, 2, T10, T1005, "parquet", null);
        DataKey none = new DataKey(Prefix.DEFAULT, TENANT, "q", Align.NONE, 2, T10, T1005, "parquet", null);
        assertThat(day.directory()).isEqualTo("queen/tenant=" + TENANT + "/queue=q/dt=2026-09-04");
        assertThat(none.directory()).isEqualTo("queen/tenant=" + TENANT + "/queue=q/dt=2026-09-04/hour=10");
    }

    @Test
    void namesAreEscapedSoNoNameLeavesItsPrefix() {
        DataKey key = new DataKey(Prefix.of("lake/x"), "t/../x", "a/b c", Align.HOUR, 1, T10, T1005, "jsonl",
                new DataKey.PartitionSlice("caff\u00e8/..", 5, 9));
        assertThat(key.render()).isEqualTo("lake/x/tenant=t%2F..%2Fx/queue=a%2Fb%20c/dt=2026-09-04/hour=10/"
                + "w-0000000001-1788516000000000-1788516300000000-p-caff%C3%A8%2F..-000000000005-000000000009.jsonl");
    }

    @Test
    void negativeStampsAndOffsetsClampToZero() {
        DataKey key = new DataKey(Prefix.DEFAULT, "t", "q", Align.HOUR, 1, -5, 10, "jsonl",
                new DataKey.PartitionSlice("p", -1, -2));
        assertThat(key.render()).isEqualTo("queen/tenant=t/queue=q/dt=1970-01-01/hour=00/"
                + "w-0000000001-0000000000000000-0000000000000010-p-p-000000000000-000000000000.jsonl");
    }

    @Test
    void lexicographicKeyOrderIsCommitOrder() {
        String k9 = new DataKey(Prefix.DEFAULT, "t", "q", Align.NONE, 9, T10, T10 + 1, "jsonl", null).fileName();
        String k10 = new DataKey(Prefix.DEFAULT, "t", "q", Align.NONE, 10, T10 + 1, T10 + 2, "jsonl", null).fileName();
        assertThat(k9).isLessThan(k10);
    }
}
