package io.queenlake.job.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@code --key value} and {@code --flag} arguments of one subcommand. Every option a command
 * does not know is refused by name, so a misspelt option never silently falls back to a default.
 */
final class CommandArgs {

    private final String command;
    private final Map<String, String> values = new LinkedHashMap<>();
    private final List<String> positional = new ArrayList<>();

    private CommandArgs(String command) {
        this.command = command;
    }

    /**
     * @param known option names the command accepts (without dashes)
     * @param flags the subset of {@code known} that takes no value
     */
    static CommandArgs parse(String command, String[] args, Set<String> known, Set<String> flags) {
        CommandArgs parsed = new CommandArgs(command);
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (!arg.startsWith("--")) {
                parsed.positional.add(arg);
                continue;
            }
            String name = arg.substring(2);
            String value = null;
            int eq = name.indexOf('=');
            if (eq >= 0) {
                value = name.substring(eq + 1);
                name = name.substring(0, eq);
            }
            if (!known.contains(name)) {
                throw new UsageException(command + ": unknown option --" + name + " (known: --" + String.join(", --", known) + ")");
            }
            if (flags.contains(name)) {
                parsed.values.put(name, value == null ? "true" : value);
                continue;
            }
            if (value == null) {
                if (i + 1 >= args.length) {
                    throw new UsageException(command + ": option --" + name + " needs a value");
                }
                value = args[++i];
            }
            parsed.values.put(name, value);
        }
        return parsed;
    }

    String get(String name, String fallback) {
        return values.getOrDefault(name, fallback);
    }

    String required(String name) {
        String value = values.get(name);
        if (value == null || value.isBlank()) {
            throw new UsageException(command + ": --" + name + " is required");
        }
        return value;
    }

    boolean flag(String name) {
        return Boolean.parseBoolean(values.getOrDefault(name, "false"));
    }

    int intValue(String name, int fallback, int min, int max) {
        String text = values.get(name);
        if (text == null) {
            return fallback;
        }
        try {
            int value = Integer.parseInt(text.trim());
            if (value < min || value > max) {
                throw new UsageException(command + ": --" + name + "=" + text + " is out of range: allowed " + min + ".." + max);
            }
            return value;
        } catch (NumberFormatException e) {
            throw new UsageException(command + ": --" + name + "=" + text + " is not a whole number");
        }
    }

    long longValue(String name, long fallback, long min, long max) {
        String text = values.get(name);
        if (text == null) {
            return fallback;
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

    List<String> positional() {
        return positional;
    }
}
