package io.queenlake.bench.e2e;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * Where the time of a recorded run goes: reads the {@code jdk.ExecutionSample} events of a JFR file
 * and puts each sample in the stage named by its innermost frame that a rule recognises (sort,
 * compress, encode, upload, S3 server, broker, fetch and parse, serialization, window, state, sink).
 * Java frames only: zstd's native code shows as the Java method that called it.
 *
 * <p>Usage: {@code JfrWhere <file.jfr> [top-frames] [thread-regex]}: with a thread pattern, only
 * the samples of threads whose name matches (e.g. Flink's task threads, {@code .*\(\d+/\d+\).*}).
 * It also prints the samples by thread group (thread names with their numbers taken out).
 */
public final class JfrWhere {

    private static final Map<String, Pattern> STAGES = new LinkedHashMap<>();

    static {
        stage("sort", "^java\\.util\\.(TimSort|ComparableTimSort|DualPivotQuicksort|Arrays\\.sort|ArrayList\\.sort)");
        stage("compress (zstd-jni, parquet codecs)", "^(com\\.github\\.luben\\.zstd|org\\.apache\\.parquet\\.hadoop\\.codec"
                + "|org\\.apache\\.parquet\\.compression|org\\.xerial\\.snappy)");
        stage("encode: queen-lake JSONL", "^io\\.queenlake\\.format\\.jsonl");
        stage("encode: queen-lake Parquet", "^io\\.queenlake\\.format\\.parquet");
        stage("encode: parquet-java", "^org\\.apache\\.parquet");
        stage("encode: FileSink encoders of the bench", "^io\\.queenlake\\.bench\\.e2e\\.(JsonLineEncoder|RowDataParquetWriters)");
        stage("format: manifests, keys, other", "^io\\.queenlake\\.format");
        stage("upload: S3A and the AWS SDK", "^(org\\.apache\\.hadoop|com\\.amazonaws|software\\.amazon|org\\.apache\\.flink\\.fs\\.s3)");
        stage("S3 server: S3Proxy, jclouds, Jetty", "^(org\\.gaul|org\\.jclouds|org\\.eclipse\\.jetty)");
        stage("dev broker: serving fetches", "^io\\.queenlake\\.devstack");
        stage("fetch and parse: QueenSource's client", "^io\\.queenlake\\.source\\.client");
        stage("QueenSource reader and enumerator", "^io\\.queenlake\\.source");
        stage("Flink serialization: queen-lake serializers", "^io\\.queenlake\\.job\\.serde");
        stage("window operator", "^io\\.queenlake\\.job\\.window");
        stage("lake sink writer and committer", "^io\\.queenlake\\.job\\.sink");
        stage("Flink state backend", "^org\\.apache\\.flink\\.(runtime\\.state|state)");
        stage("Flink serialization and network stack", "^org\\.apache\\.flink\\.(runtime\\.io|core\\.memory"
                + "|api\\.common\\.typeutils|runtime\\.plugable|streaming\\.runtime\\.io)");
        stage("Flink FileSink", "^org\\.apache\\.flink\\.(connector\\.file|streaming\\.api\\.functions\\.sink\\.filesystem)");
        stage("Flink, other", "^org\\.apache\\.flink");
        stage("JSON (Jackson)", "^com\\.fasterxml");
        stage("JDK HTTP client", "^(jdk\\.internal\\.net\\.http|java\\.net\\.http)");
        stage("JDK I/O and NIO", "^(sun\\.nio|java\\.nio|java\\.io|sun\\.net|java\\.net)");
    }

    private JfrWhere() {}

    private static void stage(String name, String regex) {
        STAGES.put(name, Pattern.compile(regex));
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("JfrWhere: give the .jfr file of a run recorded with -XX:StartFlightRecording=...,settings=profile");
            System.exit(2);
        }
        int topFrames = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        Pattern threads = args.length > 2 ? Pattern.compile(args[2]) : null;
        Map<String, Integer> stages = new TreeMap<>();
        Map<String, Integer> tops = new TreeMap<>();
        Map<String, Integer> groups = new TreeMap<>();
        int total = 0;
        for (RecordedEvent e : RecordingFile.readAllEvents(Path.of(args[0]))) {
            if (!e.getEventType().getName().equals("jdk.ExecutionSample") || e.getStackTrace() == null) {
                continue;
            }
            RecordedThread thread = e.getThread("sampledThread");
            String threadName = thread == null || thread.getJavaName() == null ? "?" : thread.getJavaName();
            if (threads != null && !threads.matcher(threadName).matches()) {
                continue;
            }
            groups.merge(threadName.replaceAll("\\d+", "#"), 1, Integer::sum);
            List<RecordedFrame> frames = e.getStackTrace().getFrames();
            total++;
            stages.merge(stageOf(frames), 1, Integer::sum);
            if (!frames.isEmpty()) {
                tops.merge(name(frames.get(0)), 1, Integer::sum);
            }
        }
        System.out.println(total + " execution samples");
        print(stages, total, Integer.MAX_VALUE);
        System.out.println("\ninnermost frames:");
        print(tops, total, topFrames);
        System.out.println("\nthread groups:");
        print(groups, total, topFrames);
    }

    private static String stageOf(List<RecordedFrame> frames) {
        for (RecordedFrame f : frames) {
            String name = name(f);
            for (Map.Entry<String, Pattern> s : STAGES.entrySet()) {
                if (s.getValue().matcher(name).find()) {
                    return s.getKey();
                }
            }
        }
        return "other (JDK)";
    }

    private static String name(RecordedFrame f) {
        return f.getMethod().getType().getName() + "." + f.getMethod().getName();
    }

    private static void print(Map<String, Integer> counts, int total, int limit) {
        counts.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed()).limit(limit)
                .forEach(c -> System.out.printf(Locale.ROOT, "%5.1f%%  %s%n", 100.0 * c.getValue() / total, c.getKey()));
    }
}
