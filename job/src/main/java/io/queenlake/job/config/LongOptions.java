package io.queenlake.job.config;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The one reader of {@code --name value}, {@code --name=value} and {@code --flag} arguments: the
 * job's settings ({@code flink run ... --queues orders}) and every command of the launcher are read
 * by it, each with its own names and its own words for a refusal.
 */
public final class LongOptions {

    /** One option as given: its name (without {@code --}) and its value ({@code "true"} for a bare flag). */
    public record Given(String name, String value) {

        /** The option as one argument, {@code --name=value}. */
        public String asArgument() {
            return "--" + name + "=" + value;
        }
    }

    /** What a caller says when an argument is refused; each returns the exception to throw. */
    public interface Refusals {
        RuntimeException notAnOption(String arg);

        RuntimeException unknown(String name);

        RuntimeException noValue(String name);
    }

    private LongOptions() {}

    /**
     * Reads {@code args} in order.
     *
     * @param isFlag for a known name whether it is a flag (a bare {@code --flag} means true); null
     *     for a name that is not known, which is refused
     */
    public static List<Given> parse(String[] args, Function<String, Boolean> isFlag, Refusals refusals) {
        List<Given> given = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (!arg.startsWith("--") || arg.length() == 2) {
                throw refusals.notAnOption(arg);
            }
            String name = arg.substring(2);
            String value = null;
            int eq = name.indexOf('=');
            if (eq >= 0) {
                value = name.substring(eq + 1);
                name = name.substring(0, eq);
            }
            Boolean flag = isFlag.apply(name);
            if (flag == null) {
                throw refusals.unknown(name);
            }
            if (value == null && flag) {
                value = "true";
            }
            if (value == null) {
                if (i + 1 >= args.length) {
                    throw refusals.noValue(name);
                }
                value = args[++i];
            }
            given.add(new Given(name, value));
        }
        return given;
    }
}
