package io.queenlake.format.cli;

import java.io.PrintStream;
import java.nio.file.Path;

/**
 * The format jar's entry point. Subcommands: {@code sample <dir>} (see {@link SampleCommand}).
 */
public final class FormatCommand {

    private FormatCommand() {}

    public static void main(String[] args) throws Exception {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) throws Exception {
        if (args.length == 2 && args[0].equals("sample")) {
            SampleCommand.run(Path.of(args[1]), out);
            return 0;
        }
        err.println("usage: java -jar queen-lake-format.jar sample <dir>   "
                + "(writes a sample window in every format under <dir> and prints DuckDB queries)");
        return 2;
    }
}
