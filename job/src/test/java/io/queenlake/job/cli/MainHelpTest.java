package io.queenlake.job.cli;

import static io.queenlake.job.cli.Launched.launch;
import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.job.config.Setting;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The launcher's texts, driven through {@link Main} in-process: every command's {@code --help} and
 * {@code -h} print its usage to stdout and exit 0 (before any argument is read, so nothing
 * starts), {@code help} lists the commands, {@code run --help} lists every setting as
 * {@link Setting} defines it, and a bad command line is one line on stderr with exit code 2.
 */
class MainHelpTest {

    static Iterable<String> commands() {
        return Main.commands().keySet();
    }

    @ParameterizedTest
    @MethodSource("commands")
    void everyCommandPrintsItsUsageForHelpAndH(String name) {
        Subcommand.Help command = Main.commands().get(name).help();
        for (String help : new String[] {"--help", "-h"}) {
            Launched ran = launch(name, help);

            assertThat(ran.exit()).as("%s %s", name, help).isZero();
            assertThat(ran.err()).as("%s %s", name, help).isEmpty();
            assertThat(ran.out()).startsWith("usage: queen-lake " + name)
                    .contains("\n" + command.summary() + "\n")
                    .contains("-h, --help");
            for (CliOption option : command.options()) {
                assertThat(ran.out()).contains(option.spelling()).contains(option.explained());
            }
        }
        assertThat(launch("help", name).out()).isEqualTo(launch(name, "--help").out());
    }

    @ParameterizedTest
    @MethodSource("commands")
    void helpWinsOverTheRestOfTheCommandLine(String name) {
        Launched ran = launch(name, "--no-such-option", "x", "--help");

        assertThat(ran.exit()).isZero();
        assertThat(ran.out()).startsWith("usage: queen-lake " + name);
    }

    @ParameterizedTest
    @ValueSource(strings = {"help", "--help", "-h"})
    void helpListsEveryCommandWithItsLine(String help) {
        Launched ran = launch(help);

        assertThat(ran.exit()).isZero();
        assertThat(ran.err()).isEmpty();
        assertThat(ran.out()).startsWith("usage: queen-lake <command> [options]");
        for (Map.Entry<String, Subcommand> e : Main.commands().entrySet()) {
            assertThat(ran.out()).containsPattern("\n  " + e.getKey() + " +" + Pattern.quote(e.getValue().help().summary()) + "\n");
        }
    }

    @Test
    void noCommandIsAUsageErrorWithTheListOnStderr() {
        Launched ran = launch();

        assertThat(ran.exit()).isEqualTo(2);
        assertThat(ran.out()).isEmpty();
        assertThat(ran.err()).startsWith("usage: queen-lake <command> [options]").contains("\n  status ");
    }

    @Test
    void runHelpListsEverySettingWithItsVariableDefaultAndAllowedValues() {
        String out = launch("run", "--help").out();

        assertThat(out).contains("README.md, section Settings");
        for (Setting s : Setting.values()) {
            String byDefault = s.defaultValue() != null ? "default " + s.defaultValue() : s.required() ? "required" : "unset by default";
            assertThat(out).as("%s", s).containsPattern("\n  --" + s.argName() + " +" + s.envName() + " +"
                    + Pattern.quote(byDefault) + "\n")
                    .contains(s.description()).contains("Allowed: " + s.allowed());
        }
        assertThat(out).contains("the job's log (Flink, the source, the sink) goes to stderr");
    }

    @ParameterizedTest
    @MethodSource("commands")
    void anUnknownOptionIsOneLineOnStderrAndExitTwo(String name) {
        Launched ran = launch(name, "--no-such-option", "1");

        assertThat(ran.exit()).isEqualTo(2);
        assertThat(ran.out()).isEmpty();
        assertThat(ran.err()).startsWith("queen-lake " + name + ": ").contains("--no-such-option").endsWith("\n");
        assertThat(ran.err().lines()).hasSize(1);
    }

    @Test
    void dashHAsTheValueOfAnOptionIsThatValueNotAHelpRequest() {
        Launched ran = launch("verify", "--sink", "-h", "--queue", "orders");

        assertThat(ran.out()).doesNotContain("usage:");
        assertThat(ran.exit()).as(ran.err()).isNotZero();
        assertThat(ran.err()).contains("QUEEN_S3_BUCKET");
    }

    @Test
    void anArgumentThatIsNoOptionIsRefusedRatherThanIgnored() {
        Launched ran = launch("demo", "extra");

        assertThat(ran.exit()).isEqualTo(2);
        assertThat(ran.err()).isEqualTo("queen-lake demo: unexpected argument 'extra': options start with --;"
                + " queen-lake demo --help lists them\n");
    }

    @Test
    void anUnknownCommandIsOneLineNamingTheCommands() {
        Launched ran = launch("no-such-command");

        assertThat(ran.exit()).isEqualTo(2);
        assertThat(ran.err()).isEqualTo("queen-lake: unknown command 'no-such-command'; commands: "
                + String.join(", ", Main.commands().keySet()) + " (queen-lake help says what each does)\n");
    }
}
