package io.queenlake.job.cli;

/** One {@code ./queen-lake <command>}. */
interface Subcommand {

    /** One line for the usage text. */
    String summary();

    /** Runs the command; returns the exit code. */
    int run(String[] args) throws Exception;
}
