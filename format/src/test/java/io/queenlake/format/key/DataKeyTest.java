package io.queenlake.format.key;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queenlake.format.model.Align;
import io.queenlake.format.model.WindowBounds;
import org.junit.jupiter.api.Test;

class DataKeyTest {

    private static final String TENANT = "00000000-0000-0000-0000-000000000001";
    /** 2026-09-04T10:00:00Z and 10:05. */
    private static final long T10 = 1_788_516_000_000_000L;
    private static final long T1005 = 1_788_516_300_000_000L;

    /** A merged, hour-aligned JSONL+zstd key of queue orders in the default prefix; a test renames what it varies. */
    private static DataKey.Builder window(long k, long tStart, long tEnd) {
        return DataKey.forWindow(k, new WindowBounds(tStart, tEnd))
                .prefix(Prefix.DEFAULT).tenant(TENANT).queue("orders").align(Align.HOUR).extension("jsonl.zst");
    }

    @Test
    void aMergedKeyMatchesTheReferenceExample() {
        DataKey key = window(1842, T10, T1005).build();
        assertThat(key.render()).isEqualTo("queen/tenant=00000000-0000-0000-0000-000000000001/queue=orders/"
                + "dt=2026-09-04/hour=10/w-0000001842-1788516000000000-1788516300000000.jsonl.zst");
    }

    @Test
    void aPerPartitionKeyNamesThePartitionAndItsOffsets() {
        DataKey key = window(1, T10, T1005).slice(new DataKey.PartitionSlice("cust-0", 0, 3)).build();
        assertThat(key.fileName())
                .isEqualTo("w-0000000001-1788516000000000-1788516300000000-p-cust-0-000000000000-000000000003.jsonl.zst");
    }

    @Test
    void dayAlignmentDropsTheHourDirectoryAndNoneKeepsIt() {
        DataKey day = window(2, T10, T1005).queue("q").align(Align.DAY).extension("parquet").build();
        DataKey none = window(2, T10, T1005).queue("q").align(Align.NONE).extension("parquet").build();
        assertThat(day.directory()).isEqualTo("queen/tenant=" + TENANT + "/queue=q/dt=2026-09-04");
        assertThat(none.directory()).isEqualTo("queen/tenant=" + TENANT + "/queue=q/dt=2026-09-04/hour=10");
    }

    @Test
    void namesAreEscapedSoNoNameLeavesItsPrefix() {
        DataKey key = window(1, T10, T1005).prefix(Prefix.of("lake/x")).tenant("t/../x").queue("a/b c")
                .extension("jsonl").slice(new DataKey.PartitionSlice("caff\u00e8/..", 5, 9)).build();
        assertThat(key.render()).isEqualTo("lake/x/tenant=t%2F..%2Fx/queue=a%2Fb%20c/dt=2026-09-04/hour=10/"
                + "w-0000000001-1788516000000000-1788516300000000-p-caff%C3%A8%2F..-000000000005-000000000009.jsonl");
    }

    @Test
    void negativeStampsAndOffsetsClampToZero() {
        DataKey key = window(1, -5, 10).tenant("t").queue("q").extension("jsonl")
                .slice(new DataKey.PartitionSlice("p", -1, -2)).build();
        assertThat(key.render()).isEqualTo("queen/tenant=t/queue=q/dt=1970-01-01/hour=00/"
                + "w-0000000001-0000000000000000-0000000000000010-p-p-000000000000-000000000000.jsonl");
    }

    @Test
    void lexicographicKeyOrderIsCommitOrder() {
        String k9 = window(9, T10, T10 + 1).align(Align.NONE).build().fileName();
        String k10 = window(10, T10 + 1, T10 + 2).align(Align.NONE).build().fileName();
        assertThat(k9).isLessThan(k10);
    }

    @Test
    void aKeyNeedsEveryPartButTheSliceAndAWindowThatEndsAfterItStarts() {
        assertThatThrownBy(() -> DataKey.forWindow(1, new WindowBounds(T10, T1005)).prefix(Prefix.DEFAULT)
                .tenant(TENANT).align(Align.HOUR).extension("jsonl").build()).hasMessage("queue");
        assertThatThrownBy(() -> window(1, T1005, T10)).hasMessageContaining("must end after it starts");
        assertThat(window(3, T10, T1005).build()).isEqualTo(window(3, T10, T1005).build());
    }
}
