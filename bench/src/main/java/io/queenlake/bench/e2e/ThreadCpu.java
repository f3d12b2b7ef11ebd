package io.queenlake.bench.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * CPU time of this JVM's threads by name, from the kernel's per-thread accounting: the JIT's compiler
 * threads and the garbage collector's are not Java threads, so the management beans do not report
 * them. It sums the threads alive when it reads (on two cores the JVM keeps its compiler and GC
 * threads for its whole life); on a system without {@code /proc} it is 0.
 */
final class ThreadCpu {

    private static final Path TASKS = Path.of("/proc/self/task");
    private static final long NANOS_PER_TICK = 10_000_000L; // USER_HZ is 100 on every Linux this runs on

    private ThreadCpu() {}

    /** The C1 and C2 compiler threads. */
    static boolean compiler(String name) {
        return name.startsWith("C1 CompilerThre") || name.startsWith("C2 CompilerThre");
    }

    /** G1's threads: its parallel workers (pauses), concurrent marking, refinement and service threads. */
    static boolean collector(String name) {
        return name.startsWith("GC Thread") || name.startsWith("G1 ");
    }

    /** CPU time so far of the threads whose name (the kernel's 15 characters of it) matches, in nanoseconds. */
    static long nanos(Predicate<String> threadName) {
        if (!Files.isDirectory(TASKS)) {
            return 0;
        }
        long ticks = 0;
        try (Stream<Path> tasks = Files.list(TASKS)) {
            for (Path task : (Iterable<Path>) tasks::iterator) {
                ticks += ticks(task, threadName);
            }
        } catch (IOException e) {
            return 0;
        }
        return ticks * NANOS_PER_TICK;
    }

    /** utime + stime of one thread if its name matches; 0 otherwise or if it has exited. */
    private static long ticks(Path task, Predicate<String> threadName) {
        try {
            if (!threadName.test(Files.readString(task.resolve("comm")).strip())) {
                return 0;
            }
            String stat = Files.readString(task.resolve("stat"));
            // Fields after the command's closing parenthesis: state is field 3, utime 14, stime 15.
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }
}
