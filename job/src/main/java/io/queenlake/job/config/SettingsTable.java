package io.queenlake.job.config;

import java.util.StringJoiner;

/**
 * Every setting as the Markdown table of the README's "Settings" section, rendered from each
 * {@link Setting}'s definition; a test fails when README.md's table differs, so the two cannot
 * drift. After changing a definition, paste this class's output over the README's table.
 */
public final class SettingsTable {

    private SettingsTable() {}

    public static String markdown() {
        StringJoiner table = new StringJoiner("\n", "", "\n");
        table.add("| Variable | Job argument | Flink key | Default | Allowed | What it does |");
        table.add("|---|---|---|---|---|---|");
        for (Setting s : Setting.values()) {
            String def = s.defaultValue() != null ? "`" + s.defaultValue() + "`" : s.required() ? "**required**" : "unset";
            table.add("| `" + s.envName() + "` | `--" + s.argName() + "` | `" + s.flinkKey() + "` | " + def + " | "
                    + s.allowed().replace("|", "\\|") + " | " + s.description()
                    + (s.secret() ? " Secret: or `" + SecretFiles.variable(s) + "` names a file holding it." : "") + " |");
        }
        return table.toString();
    }

    /** Prints the table: {@code java -cp ... io.queenlake.job.config.SettingsTable}. */
    public static void main(String[] args) {
        System.out.print(markdown());
    }
}
