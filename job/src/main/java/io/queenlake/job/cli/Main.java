package io.queenlake.job.cli;

import io.queenlake.job.config.SettingsException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code ./queen-lake} launcher's entry point: one class per subcommand. Exit codes: 0 done,
 * 1 failed, 2 bad command line.
 */
public final class Main {

    private static final Map<String, Subcommand> COMMANDS = new LinkedHashMap<>();

    static {
        COMMANDS.put("run", new RunCommand());
        COMMANDS.put("demo", new DemoCommand());
        COMMANDS.put("dev-broker", new DevBrokerCommand());
        COMMANDS.put("dev-s3", new DevS3Command());
        COMMANDS.put("push", new PushCommand());
        COMMANDS.put("verify", new VerifyCommand());
        COMMANDS.put("status", new StatusCommand());
    }

    private Main() {}

    public static void main(String[] args) {
        System.exit(run(args));
    }

    static int run(String[] args) {
        if (args.length == 0 || args[0].equals("help") || args[0].equals("--help") || args[0].equals("-h")) {
            printUsage();
            return args.length == 0 ? 2 : 0;
        }
        Subcommand command = COMMANDS.get(args[0]);
        if (command == null) {
            System.err.println("queen-lake: unknown command '" + args[0] + "'; commands: " + String.join(", ", COMMANDS.keySet()));
            return 2;
        }
        try {
            return command.run(Arrays.copyOfRange(args, 1, args.length));
        } catch (UsageException e) {
            System.err.println("queen-lake " + e.getMessage());
            return 2;
        } catch (SettingsException e) {
            System.err.println("queen-lake " + args[0] + ": " + e.getMessage());
            return 2;
        } catch (Exception e) {
            System.err.println("queen-lake " + args[0] + ": " + (e.getMessage() == null ? e.toString() : e.getMessage()));
            return 1;
        }
    }

    private static void printUsage() {
        System.out.println("usage: queen-lake <command> [options]");
        for (Map.Entry<String, Subcommand> e : COMMANDS.entrySet()) {
            System.out.printf("  %-11s %s%n", e.getKey(), e.getValue().summary());
        }
    }
}
