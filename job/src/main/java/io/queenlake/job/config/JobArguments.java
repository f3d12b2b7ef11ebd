package io.queenlake.job.config;

import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.annotation.Internal;

/**
 * The job's {@code --name value} arguments (also {@code --name=value}), by setting. A name is a
 * setting's short form ({@code --queues}) or its variable ({@code --QUEEN_S3_QUEUES}); anything else
 * is refused by name, so a misspelt argument never falls back to a default unnoticed.
 */
@Internal
public final class JobArguments {

    /** Refused in every spelling: discovery decides which partitions a queue has. */
    static final String PARTITIONS = "QUEEN_S3_PARTITIONS";

    private static final Map<String, Setting> BY_NAME = new HashMap<>();

    static {
        for (Setting s : Setting.values()) {
            BY_NAME.put(s.argName(), s);
            BY_NAME.put(s.envName(), s);
        }
    }

    private JobArguments() {}

    static Map<Setting, String> parse(String[] args) {
        Map<Setting, String> values = new EnumMap<>(Setting.class);
        List<LongOptions.Given> given = LongOptions.parse(args, name -> isSetting(name) ? Boolean.FALSE : null,
                new LongOptions.Refusals() {
                    @Override
                    public RuntimeException notAnOption(String arg) {
                        return new SettingsException("the job argument '" + arg + "' is not a --name value pair: pass"
                                + " settings as --queues orders or --QUEEN_S3_QUEUES orders.");
                    }

                    @Override
                    public RuntimeException unknown(String name) {
                        return notASetting(name);
                    }

                    @Override
                    public RuntimeException noValue(String name) {
                        return JobArguments.noValue(name);
                    }
                });
        for (LongOptions.Given g : given) {
            Setting setting = BY_NAME.get(g.name());
            if (values.containsKey(setting)) {
                throw new SettingsException("the job arguments give " + setting.envName()
                        + " twice: pass --" + setting.argName() + " (or --" + setting.envName() + ") once.");
            }
            values.put(setting, g.value());
        }
        return values;
    }

    /**
     * Whether {@code name} (without {@code --}) is a setting's short name or variable; refuses
     * {@value #PARTITIONS} in either spelling at once.
     */
    public static boolean isSetting(String name) {
        if (name.equals("partitions") || name.equals(PARTITIONS)) {
            throw partitionsRefused("(job argument --" + name + ")");
        }
        return BY_NAME.containsKey(name);
    }

    /** The refusal of a job argument that names no setting. */
    public static SettingsException notASetting(String name) {
        return new SettingsException("the job argument --" + name
                + " is not a queen-lake setting: use a setting's short name (--queues, --bucket, --queen-url, ...)"
                + " or its variable (--QUEEN_S3_QUEUES); the README lists every setting.");
    }

    /** The refusal of a setting's job argument given last, without its value. */
    public static SettingsException noValue(String name) {
        return new SettingsException("the job argument --" + name + " has no value: allowed "
                + BY_NAME.get(name).allowed() + ".");
    }

    static SettingsException partitionsRefused(String origin) {
        return new SettingsException(PARTITIONS + " " + origin
                + " is not accepted: queen-lake mirrors every partition discovery finds in each queue; remove it.");
    }
}
