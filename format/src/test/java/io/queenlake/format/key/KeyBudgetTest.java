package io.queenlake.format.key;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.format.model.Layout;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class KeyBudgetTest {

    private static final String TENANT = "00000000-0000-0000-0000-000000000001";
    private static final KeyBudget MERGED = KeyBudget.of(Prefix.DEFAULT, TENANT, Layout.MERGED, "jsonl.zst");

    @Test
    void theLongestKeyOfAnOrdinaryQueueIsItsDataKeyAndFits() {
        String key = MERGED.longestKey("orders", 0);
        assertThat(key).isEqualTo("queen/tenant=" + TENANT + "/queue=orders/dt=2286-11-20/hour=17"
                + "/w-9999999999-9999999999999998-9999999999999999.jsonl.zst");
        assertThat(MERGED.refusal("orders")).isEmpty();
    }

    @Test
    void aQueueOfNinetyEmojiIsRefusedInOneSentenceNamingIt() {
        String queue = "\uD83D\uDE00".repeat(90); // 90 x 4 UTF-8 bytes, escaped 1080
        assertThat(MERGED.refusal(queue)).hasValueSatisfying(reason -> assertThat(reason)
                .startsWith("queue '" + queue + "' cannot be mirrored: its longest lake key would be 1215 bytes,"
                        + " over S3's limit of 1024 (the escaped queue name alone takes 1080")
                .endsWith("rename the queue or shorten QUEEN_S3_PREFIX")
                .doesNotContain("\n"));
    }

    @Test
    void seventyEmojiFitS3sLimitWhateverAFolderBackedServerSays() {
        String queue = "\uD83D\uDE00".repeat(70); // escaped 840: one path segment of 846 bytes, 975 in all
        assertThat(bytes(MERGED.longestKey(queue, 0))).isEqualTo(975);
        assertThat(MERGED.refusal(queue)).isEmpty();
    }

    @Test
    void thePerPartitionLayoutAddsTheWidestOffsetsAndThePartitionReserve() {
        KeyBudget perPartition = KeyBudget.of(Prefix.DEFAULT, TENANT, Layout.PER_PARTITION, "jsonl.zst");
        int merged = bytes(MERGED.longestKey("orders", 0));
        assertThat(bytes(perPartition.longestKey("orders", 0))).isEqualTo(merged + "-p--".length() + 19 + 1 + 19);
        assertThat(bytes(perPartition.longestKey("orders", 30))).isEqualTo(merged + 30 + 43);
        String queue = "q".repeat(1024 - merged + "orders".length() - 20); // 20 bytes to spare merged, not 43
        assertThat(MERGED.refusal(queue)).isEmpty();
        assertThat(perPartition.refusal(queue)).isPresent();
    }

    private static int bytes(String key) {
        return key.getBytes(StandardCharsets.UTF_8).length;
    }
}
