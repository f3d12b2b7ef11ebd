package io.queenlake.job.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * One {@code --name} option of a command, declared once for both its parser ({@link CommandArgs})
 * and its usage ({@link Usage}), so the two cannot drift: the names it is known by, the
 * placeholder of its value (none for a flag), its default, whether it is required, and what it does.
 */
record CliOption(String name, String value, String defaultValue, boolean required, String help, List<String> aliases) {

    CliOption {
        aliases = List.copyOf(aliases);
    }

    /** An optional {@code --name VALUE}. */
    static CliOption option(String name, String value, String help) {
        return new CliOption(name, value, null, false, help, List.of());
    }

    /** A {@code --name VALUE} the command cannot do without. */
    static CliOption required(String name, String value, String help) {
        return new CliOption(name, value, null, true, help, List.of());
    }

    /** A {@code --name} that takes no value. */
    static CliOption flag(String name, String help) {
        return new CliOption(name, null, null, false, help, List.of());
    }

    /** This option with the value it takes when it is not given. */
    CliOption byDefault(Object value) {
        return new CliOption(name, this.value, String.valueOf(value), required, help, aliases);
    }

    /** This option, also known as {@code --alias}. */
    CliOption alias(String alias) {
        List<String> more = new ArrayList<>(aliases);
        more.add(alias);
        return new CliOption(name, value, defaultValue, required, help, more);
    }

    boolean isFlag() {
        return value == null;
    }

    /** How the usage writes it: {@code --queen-url U (or --url)}. */
    String spelling() {
        String aka = aliases.isEmpty() ? "" : " (or --" + String.join(", --", aliases) + ")";
        return "--" + name + (isFlag() ? "" : " " + value) + aka;
    }

    /** What it does, with its default or that it is required. */
    String explained() {
        return help + (defaultValue != null ? " (default " + defaultValue + ")" : required ? " (required)" : "");
    }
}
