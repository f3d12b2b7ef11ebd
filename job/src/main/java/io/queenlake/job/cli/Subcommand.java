package io.queenlake.job.cli;

import java.util.List;

/** One {@code ./queen-lake <command>}; {@link Usage} writes its {@code --help} from its {@link Help}. */
interface Subcommand {

    /**
     * What the usage says of a command.
     *
     * @param summary what the command does, in one line: for the list of commands and the top of its usage
     * @param options its own options, read by {@link CommandArgs} and listed by its usage
     * @param operands what its usage line shows after the options, such as the job's settings
     * @param notes the paragraphs after the options (the settings it reads, where its log goes)
     */
    record Help(String summary, List<CliOption> options, String operands, List<String> notes) {

        Help(String summary, List<CliOption> options) {
            this(summary, options, "", List.of());
        }
    }

    Help help();

    /** Runs the command; returns the exit code. */
    int run(String[] args) throws Exception;
}
