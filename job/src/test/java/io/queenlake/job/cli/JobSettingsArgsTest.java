package io.queenlake.job.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queenlake.job.config.SettingsException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A command that reads the job's settings takes its own options and hands every setting on; a
 * name that is neither is refused by name, in the job arguments' words for run and verify, in the
 * command's for a command whose own options come first.
 */
class JobSettingsArgsTest {

    private static final List<CliOption> OWN = List.of(CliOption.option("queue", "NAME", "the queue"),
            CliOption.flag("dry-run", "write nothing"));

    @Test
    void ownOptionsStayTheCommandsAndSettingsGoToTheJob() {
        JobSettingsArgs args = JobSettingsArgs.split("run", new String[] {"--queue", "orders", "--bucket", "lake",
                "--dry-run", "--QUEEN_S3_PREFIX=a=b"}, OWN);

        assertThat(args.own().get("queue")).isEqualTo("orders");
        assertThat(args.own().flag("dry-run")).isTrue();
        assertThat(args.gives("bucket", "QUEEN_S3_BUCKET")).isTrue();
        assertThat(args.gives("prefix", "QUEEN_S3_PREFIX")).isTrue();
        assertThat(args.gives("queues", "QUEEN_S3_QUEUES")).isFalse();
    }

    @Test
    void aNameThatIsNeitherIsRefusedByName() {
        assertThatThrownBy(() -> JobSettingsArgs.split("run", new String[] {"--bucket", "b", "--dryrun"}, OWN))
                .isInstanceOf(SettingsException.class)
                .hasMessageStartingWith("the job argument --dryrun is not a queen-lake setting");
        assertThatThrownBy(() -> JobSettingsArgs.split("verify", new String[] {"--check-sha256", "--queue", "q"}, OWN))
                .hasMessageStartingWith("the job argument --check-sha256 is not a queen-lake setting");
        assertThatThrownBy(() -> JobSettingsArgs.splitKnownSettings("repair-pointer", new String[] {"--dryrun"}, OWN))
                .isInstanceOf(UsageException.class)
                .hasMessageStartingWith("repair-pointer: unknown option --dryrun");
    }

    @Test
    void aSettingGivenLastWithoutItsValueAndThePartitionsSettingAreRefusedAsTheJobRefusesThem() {
        assertThatThrownBy(() -> JobSettingsArgs.split("run", new String[] {"--queue", "q", "--bucket"}, OWN))
                .hasMessageStartingWith("the job argument --bucket has no value: allowed");
        assertThatThrownBy(() -> JobSettingsArgs.split("run", new String[] {"--partitions"}, OWN))
                .hasMessageContaining("QUEEN_S3_PARTITIONS (job argument --partitions) is not accepted");
    }
}
