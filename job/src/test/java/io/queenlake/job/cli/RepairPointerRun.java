package io.queenlake.job.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** {@code ./queen-lake repair-pointer} as other packages' tests run it: its exit code and what it printed. */
public final class RepairPointerRun {

    public record Outcome(int exit, String out) {}

    private RepairPointerRun() {}

    public static Outcome run(Map<String, String> env, String... args) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int exit = new RepairPointerCommand(env, new PrintStream(bytes, true, StandardCharsets.UTF_8)).run(args);
        return new Outcome(exit, bytes.toString(StandardCharsets.UTF_8));
    }
}
