package io.queenlake.bench.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiPredicate;

/**
 * Where the CPU of profiled runs goes, side by side: reads the async-profiler files that
 * {@code -Dbench.profile=<dir>} writes (one line per thread and stack, collapsed) and puts each
 * sample in the first stage whose rule its thread name and frames meet, native frames included
 * (zstd's own code shows as zstd, not as its Java caller as in {@link JfrWhere}).
 *
 * <p>Usage: {@code CollapsedWhere <run.collapsed>...}: prints one Markdown table, a column per file.
 */
public final class CollapsedWhere {

    private static final Map<String, BiPredicate<String, String>> STAGES = new LinkedHashMap<>();

    static {
        stage("JIT (compiler and sweeper threads)", (thread, stack) -> thread.contains("CompilerThre") || thread.contains("Sweeper"));
        stage("zstd", (thread, stack) -> stack.contains("libzstd"));
        stage("S3 server (the embedded S3Proxy)", (thread, stack) -> thread.contains("S3Proxy") || thread.matches("\\[pool-\\d+-thread.*"));
        stage("state snapshots", (thread, stack) -> thread.contains("AsyncOperations"));
        stage("the benchmark's own polling (main)", (thread, stack) -> thread.startsWith("[main "));
        stage("broker fetch and decode", (thread, stack) -> thread.contains("HttpClient")
                || stack.contains("FetchDecoder") || stack.contains("HttpQueenClient"));
        stage("commit and staging, S3 client side", (thread, stack) -> thread.contains("lake-committer") || thread.contains("s3a-transfer")
                || stack.contains("com/amazonaws") || stack.contains("org/apache/hadoop/fs/s3a"));
        stage("lines without zstd", (thread, stack) -> stack.contains("JsonlLineWriter") || stack.contains("JsonLineEncoder")
                || stack.contains("JsonlObjectEncoder") || stack.contains("WindowEncoder") || stack.contains("sha256"));
        stage("keyed shuffle: serialize, send, deserialize", (thread, stack) -> stack.contains("Deserializer")
                || stack.contains("RecordWriter") || stack.contains("QueueRecordSerializer"));
        stage("window operator", (thread, stack) -> thread.contains("Broker-clock") || stack.contains("LakeWindowOperator"));
    }

    private static final String REST = "the source task, Flink's RPC, other";

    private CollapsedWhere() {}

    private static void stage(String name, BiPredicate<String, String> rule) {
        STAGES.put(name, rule);
    }

    public static void main(String[] args) throws IOException {
        if (args.length == 0) {
            System.err.println("CollapsedWhere: give the .collapsed files that -Dbench.profile=<dir> wrote");
            System.exit(2);
        }
        List<Map<String, Long>> columns = new ArrayList<>();
        for (String file : args) {
            columns.add(stagesOf(Path.of(file)));
        }
        StringBuilder out = new StringBuilder("| where |");
        for (String file : args) {
            out.append(' ').append(Path.of(file).getFileName()).append(" |");
        }
        out.append("\n|---|").append("---:|".repeat(args.length)).append('\n');
        for (String stage : columns.get(0).keySet()) {
            out.append("| ").append(stage).append(" |");
            columns.forEach(c -> out.append(String.format(Locale.ROOT, " %,d |", c.get(stage))));
            out.append('\n');
        }
        out.append("| total |");
        columns.forEach(c -> out.append(String.format(Locale.ROOT, " %,d |", c.values().stream().mapToLong(Long::longValue).sum())));
        System.out.println(out.append('\n'));
    }

    private static Map<String, Long> stagesOf(Path file) throws IOException {
        Map<String, Long> samples = new LinkedHashMap<>();
        STAGES.keySet().forEach(s -> samples.put(s, 0L));
        samples.put(REST, 0L);
        for (String line : Files.readAllLines(file)) {
            int count = line.lastIndexOf(' ');
            int thread = line.indexOf(';');
            if (count < 0 || thread < 0 || thread > count) {
                continue;
            }
            samples.merge(stageOf(line.substring(0, thread), line.substring(thread, count)), Long.parseLong(line.substring(count + 1)), Long::sum);
        }
        return samples;
    }

    private static String stageOf(String thread, String stack) {
        for (Map.Entry<String, BiPredicate<String, String>> s : STAGES.entrySet()) {
            if (s.getValue().test(thread, stack)) {
                return s.getKey();
            }
        }
        return REST;
    }
}
