package io.queenlake.job.config;

import java.util.StringJoiner;

/** Every setting as a Markdown table for the README, generated from {@link Setting} so the two cannot drift. */
public final class SettingsTable {

    private SettingsTable() {}

    public static String markdown() {
        StringJoiner table = new StringJoiner("\n", "", "\n");
        table.add("| Variable | Job argument | Flink key | Default | Allowed | What it does |");
        table.add("|---|---|---|---|---|---|");
        for (Setting s : Setting.values()) {
            String def = s.defaultValue() != null ? "`" + s.defaultValue() + "`" : s.required() ? "**required**" : "unset";
            table.add("| `" + s.envName() + "` | `--" + s.argName() + "` | `" + s.flinkKey() + "` | " + def + " | "
                    + s.allowed().replace("|", "\\|") + " | " + s.description() + (s.secret() ? " Secret." : "") + " |");
        }
        table.add("");
        table.add("Precedence: " + SettingsLoader.PRECEDENCE + ". `QUEEN_S3_PARTITIONS` is refused in every spelling.");
        return table.toString();
    }

    /** Prints the table: {@code java -cp ... io.queenlake.job.config.SettingsTable}. */
    public static void main(String[] args) {
        System.out.print(markdown());
    }
}
