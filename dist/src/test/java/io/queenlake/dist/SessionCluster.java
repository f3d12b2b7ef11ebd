package io.queenlake.dist;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A Flink standalone session cluster as {@code bin/start-cluster.sh} starts one, each process
 * started here: a JobManager ({@code StandaloneSessionClusterEntrypoint}) and TaskManagers
 * ({@code TaskManagerRunner}), separate {@code java} processes on Flink's own jars (a distribution's
 * {@code lib/}, which dist/pom.xml copies to {@code target/flink-cluster-lib}), the S3 file system as a
 * plugin ({@code FLINK_PLUGINS_DIR}), one {@code conf/config.yaml}, loopback only, free ports, each
 * process logging to its own file. The memory flags come from Flink's {@code BashJavaUtils}, as the
 * bin scripts compute them; the JVM options are those of flink-conf/config.yaml.
 */
final class SessionCluster implements AutoCloseable {

    static final Path TARGET = FlinkRunJar.TARGET;
    static final Path LIB = TARGET.resolve("flink-cluster-lib");
    static final Path PLUGINS = TARGET.resolve("flink-plugins");
    /** The production configuration, for its JVM options (the JDK 17 opens Flink needs). */
    private static final Path PRODUCTION_CONFIG = TARGET.resolve("../../flink-conf/config.yaml").normalize();
    private static final String JOB_MANAGER = "org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint";
    private static final String TASK_MANAGER = "org.apache.flink.runtime.taskexecutor.TaskManagerRunner";
    private static final String CLI = "org.apache.flink.client.cli.CliFrontend";
    private static final String RESULT = "BASH_JAVA_UTILS_EXEC_RESULT:";

    private final Path dir;
    private final Path conf;
    private final int restPort;
    private final List<String> javaOptions;
    private final Launch jobManagerLaunch;
    private final Launch taskManagerLaunch;
    private final List<Process> every = new ArrayList<>();
    private final Thread reaper = new Thread(this::destroyAll, "session-cluster-reaper");
    private Process jobManager;
    private final Process[] taskManagers;
    private final int[] starts;

    /** A process's JVM flags and the dynamic {@code -D} properties behind {@code --configDir}, as the bin scripts pass them. */
    private record Launch(List<String> jvm, List<String> dynamic) {}

    private SessionCluster(Path dir, Map<String, String> settings, int taskManagers) throws Exception {
        this.dir = dir;
        this.conf = Files.createDirectories(dir.resolve("conf"));
        Files.createDirectories(dir.resolve("log"));
        this.restPort = freePort();
        Map<String, String> config = new LinkedHashMap<>();
        config.put("jobmanager.rpc.address", "127.0.0.1");
        config.put("jobmanager.rpc.port", Integer.toString(freePort()));
        config.put("jobmanager.bind-host", "127.0.0.1");
        config.put("rest.address", "127.0.0.1");
        config.put("rest.bind-address", "127.0.0.1");
        config.put("rest.port", Integer.toString(restPort));
        config.put("taskmanager.host", "127.0.0.1");
        config.put("taskmanager.bind-host", "127.0.0.1");
        config.put("io.tmp.dirs", Files.createDirectories(dir.resolve("tmp")).toString());
        // Three JVMs and the test's on two cores: small processes, no managed memory (no RocksDB, no batch).
        config.put("jobmanager.memory.process.size", "1g");
        config.put("taskmanager.memory.process.size", "1g");
        config.put("taskmanager.memory.managed.fraction", "0.0");
        config.putAll(settings);
        StringBuilder yaml = new StringBuilder();
        config.forEach((k, v) -> yaml.append(k).append(": ").append(v).append('\n'));
        Files.writeString(conf.resolve("config.yaml"), yaml);
        Files.writeString(conf.resolve("log4j.properties"), String.join("\n",
                "rootLogger.level = INFO",
                "rootLogger.appenderRef.file.ref = MainAppender",
                "appender.main.name = MainAppender",
                "appender.main.type = File",
                "appender.main.fileName = ${sys:log.file}",
                "appender.main.layout.type = PatternLayout",
                "appender.main.layout.pattern = %d{HH:mm:ss,SSS} %-5p %c{1} [%t] - %m%n",
                ""));
        FlinkRunJar.writeCliLogging(conf);
        this.javaOptions = productionJavaOptions();
        this.jobManagerLaunch = resourceParams("GET_JM_RESOURCE_PARAMS");
        this.taskManagerLaunch = resourceParams("GET_TM_RESOURCE_PARAMS");
        this.taskManagers = new Process[taskManagers];
        this.starts = new int[taskManagers];
        Runtime.getRuntime().addShutdownHook(reaper);
    }

    /** Starts the JobManager and {@code taskManagers} TaskManagers and waits until all have registered. */
    static SessionCluster start(Path dir, Map<String, String> settings, int taskManagers) throws Exception {
        SessionCluster cluster = new SessionCluster(dir, settings, taskManagers);
        try {
            cluster.jobManager = cluster.launch("jobmanager", JOB_MANAGER, cluster.jobManagerLaunch);
            for (int i = 0; i < taskManagers; i++) {
                cluster.startTaskManager(i);
            }
            cluster.awaitTaskManagers(taskManagers, Duration.ofSeconds(120));
            return cluster;
        } catch (Exception | AssertionError e) {
            String tails = cluster.logTails();
            cluster.close();
            throw new AssertionError("the session cluster did not come up: " + e.getMessage() + "\n" + tails, e);
        }
    }

    /** Flink's jars, the cluster's whole class path. */
    static List<Path> lib() {
        try (Stream<Path> jars = Files.list(LIB)) {
            return jars.filter(p -> p.toString().endsWith(".jar")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException("no " + LIB + ": job/pom.xml's execution flink-cluster-lib fills it (mvn package)", e);
        }
    }

    URI restUrl() {
        return URI.create("http://127.0.0.1:" + restPort);
    }

    /** Starts TaskManager {@code i} (again, after a kill), logging to a file of its own for each start. */
    void startTaskManager(int i) throws IOException {
        String name = "taskmanager-" + i + (starts[i] == 0 ? "" : "-start" + (starts[i] + 1));
        starts[i]++;
        taskManagers[i] = launch(name, TASK_MANAGER, taskManagerLaunch);
    }

    /** SIGKILL, as an OOM killer or a lost node ends a process: no shutdown hook, no goodbye to the JobManager. */
    int killTaskManager(int i) throws InterruptedException {
        Process process = taskManagers[i];
        process.destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new AssertionError("TaskManager " + i + " (pid " + process.pid() + ") outlived SIGKILL for 30 s");
        }
        return process.exitValue();
    }

    record Submission(int exitCode, String output) {}

    /**
     * {@code bin/flink run -d -p <parallelism> <jar> args} against this cluster, in its own JVM as the
     * script runs it: {@code CliFrontend} on the same Flink jars, {@code FLINK_CONF_DIR} the cluster's.
     */
    Submission flinkRun(Path jar, int parallelism, Map<String, String> env, List<String> jobArgs) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(java());
        command.addAll(javaOptions);
        command.add("-Dlog4j.configurationFile=file:" + conf.resolve("log4j-cli.properties"));
        command.addAll(List.of("-cp", classPath(), CLI, "run", "-d", "-p", Integer.toString(parallelism), jar.toString()));
        command.addAll(jobArgs);
        Path output = dir.resolve("log").resolve("flink-run.out");
        ProcessBuilder builder = processBuilder(command).redirectOutput(output.toFile());
        builder.environment().put("FLINK_CONF_DIR", conf.toString());
        builder.environment().putAll(env);
        Process process = track(builder.start());
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("flink run did not return within 120 s:\n" + Files.readString(output));
        }
        return new Submission(process.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
    }

    /** The last lines of every process's log and output, for a failure message. */
    String logTails() {
        StringBuilder tails = new StringBuilder();
        try (Stream<Path> logs = Files.list(dir.resolve("log"))) {
            for (Path log : logs.sorted().toList()) {
                List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
                tails.append("----- ").append(log.getFileName()).append(" (last 40 of ").append(lines.size())
                        .append(" lines) -----\n");
                lines.subList(Math.max(0, lines.size() - 40), lines.size())
                        .forEach(l -> tails.append(l).append('\n'));
            }
        } catch (IOException e) {
            tails.append("(logs unreadable: ").append(e).append(")\n");
        }
        return tails.toString();
    }

    /** Every process this cluster started, SIGKILLed: nothing of the cluster outlives the test. */
    @Override
    public void close() {
        destroyAll();
        try {
            Runtime.getRuntime().removeShutdownHook(reaper);
        } catch (IllegalStateException shuttingDown) {
            // the hook runs anyway
        }
    }

    private synchronized void destroyAll() {
        for (Process p : every) {
            p.destroyForcibly();
        }
        for (Process p : every) {
            try {
                p.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private synchronized Process track(Process process) {
        every.add(process);
        return process;
    }

    private Process launch(String name, String mainClass, Launch launch) throws IOException {
        Path log = dir.resolve("log").resolve(name + ".log");
        List<String> command = new ArrayList<>();
        command.add(java());
        command.addAll(launch.jvm());
        command.addAll(javaOptions);
        command.add("-Dlog.file=" + log);
        command.add("-Dlog4j.configurationFile=file:" + conf.resolve("log4j.properties"));
        command.addAll(List.of("-cp", classPath(), mainClass, "--configDir", conf.toString()));
        command.addAll(launch.dynamic());
        return track(processBuilder(command).redirectOutput(dir.resolve("log").resolve(name + ".out").toFile()).start());
    }

    /** What {@code bin/jobmanager.sh} and {@code bin/taskmanager.sh} ask Flink for: heap, direct and metaspace sizes. */
    private Launch resourceParams(String which) throws Exception {
        List<String> command = List.of(java(), "-cp", classPath(), "org.apache.flink.runtime.util.bash.BashJavaUtils",
                which, "--configDir", conf.toString());
        Path output = dir.resolve("log").resolve("bash-java-utils-" + which + ".out");
        Process process = track(processBuilder(command).redirectOutput(output.toFile()).start());
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
            process.destroyForcibly();
            throw new AssertionError("BashJavaUtils " + which + " failed:\n" + Files.readString(output));
        }
        List<String> results = Files.readAllLines(output).stream().filter(l -> l.startsWith(RESULT))
                .map(l -> l.substring(RESULT.length()).trim()).toList();
        if (results.isEmpty()) {
            throw new AssertionError("BashJavaUtils " + which + " printed no result:\n" + Files.readString(output));
        }
        return new Launch(words(results.get(0)), results.size() > 1 ? words(results.get(1)) : List.of());
    }

    private static List<String> words(String line) {
        return line.isBlank() ? List.of() : Arrays.asList(line.trim().split("\\s+"));
    }

    private static ProcessBuilder processBuilder(List<String> command) {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().keySet().removeIf(k -> k.startsWith("QUEEN_") || k.startsWith("FLINK_"));
        builder.environment().put("FLINK_PLUGINS_DIR", PLUGINS.toString());
        return builder;
    }

    private void awaitTaskManagers(int count, Duration timeout) throws Exception {
        ClusterRest rest = new ClusterRest(restUrl());
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            if (!jobManager.isAlive()) {
                throw new AssertionError("the JobManager exited with " + jobManager.exitValue());
            }
            for (int i = 0; i < taskManagers.length; i++) {
                if (!taskManagers[i].isAlive()) {
                    throw new AssertionError("TaskManager " + i + " exited with " + taskManagers[i].exitValue());
                }
            }
            if (rest.registeredTaskManagers().orElse(-1) >= count) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError(count + " TaskManagers did not register within " + timeout);
            }
            Thread.sleep(250);
        }
    }

    private static String classPath() {
        return String.join(File.pathSeparator, lib().stream().map(Path::toString).toList());
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** {@code env.java.opts.all} of flink-conf/config.yaml: what the production processes run with. */
    private static List<String> productionJavaOptions() throws IOException {
        String key = "env.java.opts.all:";
        return Files.readAllLines(PRODUCTION_CONFIG).stream().filter(l -> l.startsWith(key))
                .map(l -> words(l.substring(key.length()))).findFirst()
                .orElseThrow(() -> new AssertionError(PRODUCTION_CONFIG + " has no " + key));
    }

    private static int freePort() throws IOException {
        try (ServerSocket free = new ServerSocket(0)) {
            return free.getLocalPort();
        }
    }
}
