package io.queenlake.job.config;

/** Where a setting's value in force came from, highest precedence first. */
public enum Origin {
    ARGUMENT,
    FLINK_CONFIGURATION,
    ENVIRONMENT,
    /** A secret read from the file its {@code _FILE} variable names (never beside the variable itself). */
    FILE,
    DEFAULT;

    /** The source of {@code setting}'s value, in words, for one-line messages. */
    String describe(Setting setting) {
        return switch (this) {
            case ARGUMENT -> "(job argument --" + setting.argName() + ")";
            case FLINK_CONFIGURATION -> "(Flink configuration " + setting.flinkKey() + ")";
            case ENVIRONMENT -> "(environment)";
            case FILE -> "(file named by " + SecretFiles.variable(setting) + ")";
            case DEFAULT -> "(default)";
        };
    }

    /** A short tag for {@link LakeSettings#describe()}. */
    String tag() {
        return switch (this) {
            case ARGUMENT -> "arg";
            case FLINK_CONFIGURATION -> "flink";
            case ENVIRONMENT -> "env";
            case FILE -> "file";
            case DEFAULT -> "default";
        };
    }
}
