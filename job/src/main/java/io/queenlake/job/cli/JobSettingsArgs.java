package io.queenlake.job.cli;

import io.queenlake.job.config.JobArguments;
import io.queenlake.job.config.LakeSettings;
import io.queenlake.job.config.LongOptions;
import io.queenlake.job.config.SettingsLoader;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.ReadableConfig;

/**
 * The command line of a command that runs or reads the job's lake ({@code run}, {@code verify}):
 * the command's own options, and every other {@code --name value} pair handed to
 * {@link SettingsLoader} as a job argument, so the job's settings are read exactly as
 * {@code flink run} reads them (argument, Flink key, environment, default) and refused in the same
 * one-line words.
 */
final class JobSettingsArgs {

    private final CommandArgs own;
    private final List<String> jobArgs;

    private JobSettingsArgs(CommandArgs own, List<String> jobArgs) {
        this.own = own;
        this.jobArgs = jobArgs;
    }

    /** @param ownOptions the command's own options; every other {@code --name value} is a job setting */
    static JobSettingsArgs split(String command, String[] args, List<CliOption> ownOptions) {
        return split(command, args, ownOptions, true);
    }

    /**
     * Like {@link #split(String, String[], List)}, for a command whose own options come first:
     * only the names of settings ({@code --bucket}, {@code --QUEEN_S3_BUCKET}) are job settings, and
     * anything else is refused as the command's unknown option.
     */
    static JobSettingsArgs splitKnownSettings(String command, String[] args, List<CliOption> ownOptions) {
        return split(command, args, ownOptions, false);
    }

    /**
     * @param settingsFirst whether a name that is neither the command's nor a setting's is refused
     *     as a job argument ({@code run}, {@code verify}: their options are mostly settings) rather
     *     than as the command's unknown option
     */
    private static JobSettingsArgs split(String command, String[] args, List<CliOption> ownOptions,
            boolean settingsFirst) {
        Map<String, CliOption> own = CommandArgs.byName(ownOptions);
        LongOptions.Refusals commands = CommandArgs.refusals(command, ownOptions);
        List<LongOptions.Given> given = LongOptions.parse(args, name -> {
            if (own.containsKey(name)) {
                return own.get(name).isFlag();
            }
            return JobArguments.isSetting(name) ? Boolean.FALSE : null;
        }, new LongOptions.Refusals() {
            @Override
            public RuntimeException notAnOption(String arg) {
                return commands.notAnOption(arg);
            }

            @Override
            public RuntimeException unknown(String name) {
                return settingsFirst ? JobArguments.notASetting(name) : commands.unknown(name);
            }

            @Override
            public RuntimeException noValue(String name) {
                return own.containsKey(name) ? commands.noValue(name) : JobArguments.noValue(name);
            }
        });
        List<String> mine = new ArrayList<>();
        List<String> job = new ArrayList<>();
        for (LongOptions.Given g : given) {
            (own.containsKey(g.name()) ? mine : job).add(g.asArgument());
        }
        return new JobSettingsArgs(CommandArgs.parse(command, mine.toArray(String[]::new), ownOptions), job);
    }

    CommandArgs own() {
        return own;
    }

    /** The job's settings from these arguments plus {@code extra} ones, the environment and {@code flinkConf}. */
    LakeSettings settings(Map<String, String> env, ReadableConfig flinkConf, String... extra) {
        List<String> all = new ArrayList<>(jobArgs);
        all.addAll(List.of(extra));
        return SettingsLoader.load(env, all.toArray(String[]::new), flinkConf);
    }

    /** Whether any job setting is given on the command line. */
    boolean hasSettings() {
        return !jobArgs.isEmpty();
    }

    /** Whether the job arguments already give {@code setting} (by its short name or its variable). */
    boolean gives(String argName, String envName) {
        return jobArgs.stream().anyMatch(a -> a.equals("--" + argName) || a.startsWith("--" + argName + "=")
                || a.equals("--" + envName) || a.startsWith("--" + envName + "="));
    }
}
