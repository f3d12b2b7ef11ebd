package io.queenlake.job.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queenlake.format.key.KeyBudget;
import io.queenlake.format.model.Layout;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;

class QueueKeyCheckTest {

    private static final String TOO_LONG = "\uD83D\uDE00".repeat(90); // escaped 1080 bytes

    private static LakeSettings load(String... args) {
        return SettingsLoader.load(Map.of("QUEEN_S3_BUCKET", "lake"), args, new Configuration());
    }

    @Test
    void aNamedQueueWhoseKeysCannotFitInS3IsRefusedAtStartInOneLineNamingIt() {
        assertThatThrownBy(() -> load("--queues", "orders," + TOO_LONG))
                .isInstanceOf(SettingsException.class)
                .hasMessageStartingWith("QUEEN_S3_QUEUES: queue '" + TOO_LONG + "' cannot be mirrored: its longest"
                        + " lake key would be 1215 bytes, over S3's limit of 1024")
                .hasMessageEndingWith("rename the queue or shorten QUEEN_S3_PREFIX.")
                .hasMessageNotContaining("\n");
    }

    @Test
    void theBoundFollowsThePrefixAndTheLayoutAndEveryQueueIsLeftToDiscovery() {
        String nearly = "q".repeat(KeyBudget.MAX_KEY_BYTES - 135 - 10);
        assertThat(load("--queues", nearly).queues()).containsExactly(nearly);
        assertThatThrownBy(() -> load("--queues", nearly, "--prefix", "a/much/longer/prefix"))
                .hasMessageContaining("cannot be mirrored");
        assertThatThrownBy(() -> load("--queues", nearly, "--layout", "per-partition"))
                .hasMessageContaining("cannot be mirrored");
        LakeSettings all = load("--queues", "*", "--layout", "per-partition");
        assertThat(QueueKeyCheck.budgetOf(all)).isEqualTo(KeyBudget.of(all.prefix(), all.tenant(), Layout.PER_PARTITION,
                "jsonl.zst"));
        assertThat(all.source().config().keyBudget()).isEqualTo(QueueKeyCheck.budgetOf(all));
    }
}
