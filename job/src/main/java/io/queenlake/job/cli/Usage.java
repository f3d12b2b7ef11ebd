package io.queenlake.job.cli;

import io.queenlake.job.config.Setting;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The usage texts: {@code ./queen-lake help} (every command in a line) and
 * {@code ./queen-lake <command> --help} (what it does, its options, its notes), written from each
 * command's {@link Subcommand.Help} and the job's settings as {@link Setting} defines them, so no
 * option or setting is listed by hand.
 */
final class Usage {

    private static final String HELP = "-h, --help";

    private Usage() {}

    /** Every command with its one line. */
    static String commands(Map<String, Subcommand> commands) {
        List<String[]> rows = new ArrayList<>();
        commands.forEach((name, command) -> rows.add(new String[] {name, command.help().summary()}));
        return "usage: queen-lake <command> [options]\n"
                + "       queen-lake <command> --help   what the command does and its options"
                + " (run --help: every setting of the job)\n"
                + "\ncommands:\n" + String.join("\n", columns(rows)) + "\n";
    }

    /** One command's usage: its usage line, what it does, its options, its notes. */
    static String of(String name, Subcommand command) {
        Subcommand.Help help = command.help();
        StringBuilder line = new StringBuilder("usage: queen-lake ").append(name);
        boolean optional = false;
        for (CliOption option : help.options()) {
            if (option.required()) {
                line.append(' ').append("--").append(option.name()).append(' ').append(option.value());
            } else {
                optional = true;
            }
        }
        line.append(optional ? " [options]" : "").append(help.operands());
        List<String[]> rows = new ArrayList<>();
        for (CliOption option : help.options()) {
            rows.add(new String[] {option.spelling(), option.explained()});
        }
        rows.add(new String[] {HELP, "print this usage"});
        StringBuilder text = new StringBuilder(line).append('\n').append(help.summary()).append("\n\noptions:\n");
        columns(rows).forEach(row -> text.append(row).append('\n'));
        for (String note : help.notes()) {
            text.append('\n').append(note).append('\n');
        }
        return text.toString();
    }

    /**
     * Whether {@code args} ask for the usage: {@code --help} or {@code -h} where an option name is
     * expected, never as the value of an option before it ({@code --token -h} is a token).
     */
    static boolean asked(String[] args, Subcommand.Help help) {
        for (int i = 0; i < args.length; i++) {
            if ((args[i].equals("--help") || args[i].equals("-h")) && (i == 0 || !takesValue(args[i - 1], help))) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code arg} names an option followed by its value (a job setting always is; a flag is not). */
    private static boolean takesValue(String arg, Subcommand.Help help) {
        if (!arg.startsWith("--") || arg.contains("=")) {
            return false;
        }
        String name = arg.substring(2);
        return help.options().stream().filter(o -> o.name().equals(name) || o.aliases().contains(name))
                .findFirst().map(o -> o.value() != null).orElse(true);
    }

    /** The settings section of the commands that read a lake and its pointers (verify, repair-pointer). */
    static String bucketAndBrokerSettings() {
        return settings("the bucket and the broker come from the job's settings, --name value or the QUEEN_* variable"
                        + " (queen-lake run --help lists every setting):",
                Setting.ENDPOINT, Setting.REGION, Setting.BUCKET, Setting.PATH_STYLE, Setting.ACCESS_KEY,
                Setting.SECRET_KEY, Setting.PREFIX, Setting.QUEEN_URL, Setting.QUEEN_TOKEN, Setting.QUEEN_TENANT);
    }

    /** A few settings by their job argument and variable, each with what it does. */
    static String settings(String heading, Setting... settings) {
        List<String[]> rows = new ArrayList<>();
        for (Setting s : settings) {
            rows.add(new String[] {"--" + s.argName() + " (" + s.envName() + ")", s.description() + " (" + byDefault(s) + ")"});
        }
        return heading + "\n" + String.join("\n", columns(rows));
    }

    /** Every setting: its job argument, its variable and its default, then what it does and what it allows. */
    static String everySetting(String heading) {
        List<String[]> rows = new ArrayList<>();
        for (Setting s : Setting.values()) {
            rows.add(new String[] {"--" + s.argName(), s.envName(), byDefault(s)});
        }
        List<String> heads = columns(rows);
        StringBuilder text = new StringBuilder(heading);
        Setting[] all = Setting.values();
        for (int i = 0; i < all.length; i++) {
            text.append('\n').append(heads.get(i))
                    .append("\n      ").append(all[i].description()).append(" Allowed: ").append(all[i].allowed())
                    .append(all[i].allowed().endsWith(".") ? "" : ".");
        }
        return text.toString();
    }

    private static String byDefault(Setting s) {
        return s.defaultValue() != null ? "default " + s.defaultValue() : s.required() ? "required" : "unset by default";
    }

    /** Rows of cells as lines indented by two, every column but the last padded to its widest cell. */
    private static List<String> columns(List<String[]> rows) {
        int cells = rows.stream().mapToInt(r -> r.length).max().orElse(0);
        int[] width = new int[cells];
        for (String[] row : rows) {
            for (int c = 0; c < row.length - 1; c++) {
                width[c] = Math.max(width[c], row[c].length());
            }
        }
        List<String> lines = new ArrayList<>();
        for (String[] row : rows) {
            StringBuilder line = new StringBuilder(" ");
            for (int c = 0; c < row.length; c++) {
                line.append(' ').append(c < row.length - 1 ? String.format("%-" + width[c] + "s ", row[c]) : row[c]);
            }
            lines.add(line.toString().stripTrailing());
        }
        return lines;
    }
}
