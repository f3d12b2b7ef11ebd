package io.queenlake.job.cli;

import io.queenlake.job.config.SettingsException;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code ./queen-lake} launcher's entry point: one class per subcommand. {@code help},
 * {@code --help} and {@code -h} list the commands; {@code <command> --help} (or {@code -h}, or
 * {@code help <command>}) prints that command's usage, before its arguments are read. Usage goes
 * to stdout, errors to stderr. Exit codes: 0 done, 1 failed, 2 bad command line.
 */
public final class Main {

    private static final Map<String, Subcommand> COMMANDS = new LinkedHashMap<>();

    static {
        COMMANDS.put("run", new RunCommand());
        COMMANDS.put("demo", new DemoCommand());
        COMMANDS.put("dev-broker", new DevBrokerCommand());
        COMMANDS.put("dev-s3", new DevS3Command());
        COMMANDS.put("dev-catalog", new DevCatalogCommand());
        COMMANDS.put("push", new PushCommand());
        COMMANDS.put("verify", new VerifyCommand());
        COMMANDS.put("status", new StatusCommand());
        COMMANDS.put("repair-pointer", new RepairPointerCommand());
    }

    private Main() {}

    public static void main(String[] args) {
        System.exit(run(args));
    }

    static int run(String[] args) {
        return run(args, System.out, System.err);
    }

    /** Runs one command line; the launcher's own texts (usage, refusals) go to {@code out} and {@code err}. */
    static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length == 0) {
            err.print(Usage.commands(COMMANDS));
            return 2;
        }
        String name = args[0];
        String[] rest = Arrays.copyOfRange(args, 1, args.length);
        if (name.equals("help") || name.equals("--help") || name.equals("-h")) {
            if (rest.length == 0) {
                out.print(Usage.commands(COMMANDS));
                return 0;
            }
            name = rest[0];
            rest = new String[] {"--help"};
        }
        Subcommand command = COMMANDS.get(name);
        if (command == null) {
            err.println("queen-lake: unknown command '" + name + "'; commands: " + String.join(", ", COMMANDS.keySet())
                    + " (queen-lake help says what each does)");
            return 2;
        }
        if (Usage.asked(rest, command.help())) {
            out.print(Usage.of(name, command));
            return 0;
        }
        try {
            return command.run(rest);
        } catch (UsageException e) {
            err.println("queen-lake " + e.getMessage());
            return 2;
        } catch (SettingsException e) {
            err.println("queen-lake " + name + ": " + e.getMessage() + " (queen-lake run --help lists every setting)");
            return 2;
        } catch (Exception e) {
            err.println("queen-lake " + name + ": " + (e.getMessage() == null ? e.toString() : e.getMessage()));
            return 1;
        }
    }

    /** The commands by name, in the order {@code help} lists them. */
    static Map<String, Subcommand> commands() {
        return Collections.unmodifiableMap(COMMANDS);
    }
}
