package io.queenlake.job.cli;

import io.queenlake.job.config.LongOptions;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code --key value} and {@code --flag} arguments of one subcommand, read against the
 * {@link CliOption}s it declares. Every option a command does not know, and every argument that is
 * not an option, is refused by name, so a misspelt option never silently falls back to a default.
 */
final class CommandArgs {

    private final String command;
    private final Map<String, CliOption> options = new LinkedHashMap<>();
    /** Every name an option is known by, its aliases too. */
    private final Map<String, CliOption> byName;
    private final Map<String, String> values = new HashMap<>();

    private CommandArgs(String command, List<CliOption> declared) {
        this.command = command;
        for (CliOption option : declared) {
            options.put(option.name(), option);
        }
        this.byName = byName(declared);
    }

    static CommandArgs parse(String command, String[] args, List<CliOption> declared) {
        CommandArgs parsed = new CommandArgs(command, declared);
        List<LongOptions.Given> given = LongOptions.parse(args,
                name -> parsed.byName.containsKey(name) ? parsed.byName.get(name).isFlag() : null, parsed.refusals());
        for (LongOptions.Given g : given) {
            parsed.values.put(parsed.byName.get(g.name()).name(), g.value());
        }
        return parsed;
    }

    /** The command's words for a refused argument, for a parser that reads its options among others. */
    static LongOptions.Refusals refusals(String command, List<CliOption> declared) {
        return new CommandArgs(command, declared).refusals();
    }

    private LongOptions.Refusals refusals() {
        return new LongOptions.Refusals() {
            @Override
            public RuntimeException notAnOption(String arg) {
                return new UsageException(command + ": unexpected argument '" + arg + "': options start with --"
                        + "; queen-lake " + command + " --help lists them");
            }

            @Override
            public RuntimeException unknown(String name) {
                return new UsageException(command + ": unknown option --" + name + " (known: --"
                        + String.join(", --", options.keySet()) + "; queen-lake " + command
                        + " --help says what each does)");
            }

            @Override
            public RuntimeException noValue(String name) {
                return new UsageException(command + ": option --" + name + " needs a value ("
                        + byName.get(name).value() + ")");
            }
        };
    }

    /** Every name an option is known by (its aliases too), to the option. */
    static Map<String, CliOption> byName(List<CliOption> declared) {
        Map<String, CliOption> byName = new HashMap<>();
        for (CliOption option : declared) {
            byName.put(option.name(), option);
            option.aliases().forEach(alias -> byName.put(alias, option));
        }
        return byName;
    }

    /** The value given (under the option's name or an alias), else the option's default, else null. */
    String get(String name) {
        String value = values.get(name);
        return value != null ? value : declared(name).defaultValue();
    }

    /** The value given, else {@code fallback} (for a default that is not the option's own, e.g. a variable). */
    String get(String name, String fallback) {
        declared(name);
        return values.getOrDefault(name, fallback);
    }

    /** Whether the command line gives the option (its default does not count). */
    boolean given(String name) {
        declared(name);
        return values.containsKey(name);
    }

    String required(String name) {
        String value = get(name);
        if (value == null || value.isBlank()) {
            throw new UsageException(command + ": --" + name + " is required");
        }
        return value;
    }

    boolean flag(String name) {
        return Boolean.parseBoolean(get(name, "false"));
    }

    int intValue(String name, int min, int max) {
        return Math.toIntExact(longValue(name, min, max));
    }

    /** The option's value (or its default, which it must have) as a whole number within {@code min..max}. */
    long longValue(String name, long min, long max) {
        String text = get(name);
        if (text == null) {
            throw new IllegalStateException("--" + name + " of " + command + " has no default");
        }
        try {
            long value = Long.parseLong(text.trim());
            if (value < min || value > max) {
                throw new UsageException(command + ": --" + name + "=" + text + " is out of range: allowed " + min + ".." + max);
            }
            return value;
        } catch (NumberFormatException e) {
            throw new UsageException(command + ": --" + name + "=" + text + " is not a whole number");
        }
    }

    private CliOption declared(String name) {
        CliOption option = options.get(name);
        if (option == null) {
            throw new IllegalArgumentException(command + " declares no option --" + name);
        }
        return option;
    }
}
