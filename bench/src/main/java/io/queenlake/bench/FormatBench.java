package io.queenlake.bench;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.github.luben.zstd.ZstdOutputStreamNoFinalizer;
import io.queenlake.format.codec.ObjectEncoder;
import io.queenlake.format.jsonl.Compression;
import io.queenlake.format.jsonl.JsonlObjectEncoder;
import io.queenlake.format.model.LogRecord;
import io.queenlake.format.parquet.ParquetObjectEncoder;
import io.queenlake.format.window.ObjectLabels;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * The format benchmark: one seeded corpus, single-threaded, medians of timed rounds after
 * warm-up, all output into a counting sink (no disk).
 *
 * <ul>
 *   <li>JSONL+zstd encoder against zstd-jni compressing the same JSONL bytes, prebuilt, at level 3
 *       with the same streaming frame API, which writes the very frame the encoder writes (the
 *       physical limit); target ratio >= 0.8. The records are the ones QueenSource emits (payloads
 *       already parsed by its fetch decoder); {@code -Dpayloads=unchecked} gives records of unknown
 *       origin instead, whose every payload the encoder checks itself. One kind per JVM, so that
 *       the JIT compiles the encoder for the kind it measures.
 *   <li>The Parquet envelope encoder against flink-parquet's RowData writer with Flink's defaults,
 *       same codec on both sides; target ratio >= 1.0.
 * </ul>
 *
 * <p>Usage: {@code FormatBench [records] [partitions] [warmups] [rounds]}, defaults 500000 300 3 9.
 */
public final class FormatBench {
    private static final ObjectLabels LABELS = new ObjectLabels("00000000-0000-0000-0000-000000000001", "orders");
    private static final int ZSTD_LEVEL = 3;
    private static final int CHUNK = 128 * 1024;

    private FormatBench() {}

    public static void main(String[] args) throws Exception {
        int records = args.length > 0 ? Integer.parseInt(args[0]) : 500_000;
        int partitions = args.length > 1 ? Integer.parseInt(args[1]) : 300;
        Stopwatch stopwatch = new Stopwatch(
                args.length > 2 ? Integer.parseInt(args[2]) : 3, args.length > 3 ? Integer.parseInt(args[3]) : 9);

        boolean unchecked = "unchecked".equals(System.getProperty("payloads"));
        List<LogRecord> corpus = BenchCorpus.generate(42, records, partitions, !unchecked);
        if (!unchecked) {
            requireJsonValues(corpus);
        }
        byte[] jsonl = encodeToBytes(JsonlObjectEncoder.of(Compression.NONE), corpus);
        long payloadBytes = corpus.stream().mapToLong(r -> r.payload().length).sum();
        System.out.printf(Locale.ROOT, "corpus: %d records, %d partitions, %.1f B mean payload, %.1f MB of JSONL%n",
                records, partitions, (double) payloadBytes / records, jsonl.length / 1e6);
        System.out.println(machine());
        System.out.println(unchecked
                ? "records: of unknown origin, the encoder checks every payload (-Dpayloads=unchecked)"
                : "records: as QueenSource emits them, payloads parsed by its fetch decoder (-Dpayloads=unchecked for the other kind)");

        Stopwatch.Comparison jsonlRun = stopwatch.compare(
                () -> compressZstd(jsonl), () -> encode(JsonlObjectEncoder.of(Compression.ZSTD), corpus));
        System.out.println();
        System.out.println("| measurement | median ms | MB/s of JSONL | median CPU ms | MB/s of JSONL per core | output MB |");
        System.out.println("|---|---:|---:|---:|---:|---:|");
        row("zstd-jni level 3 over prebuilt JSONL (limit)", jsonlRun.baselineNanos(), jsonlRun.baselineCpuNanos(),
                jsonl.length, compressZstd(jsonl));
        row("JsonlObjectEncoder zstd", jsonlRun.candidateNanos(), jsonlRun.candidateCpuNanos(), jsonl.length,
                encode(JsonlObjectEncoder.of(Compression.ZSTD), corpus));
        // Where the encoder's time goes beyond compression: the same encoder without it.
        Stopwatch.Comparison linesOnly = stopwatch.compare(
                () -> compressZstd(jsonl), () -> encode(JsonlObjectEncoder.of(Compression.NONE), corpus));
        row("JsonlObjectEncoder none (line building only)", linesOnly.candidateNanos(), linesOnly.candidateCpuNanos(),
                jsonl.length, jsonl.length);
        System.out.printf(Locale.ROOT, "%nJSONL encoder / zstd limit = %.2f by the wall clock, %.2f by thread CPU time"
                + " (medians of per-round ratios; target >= 0.80)%n", jsonlRun.ratio(), jsonlRun.cpuRatio());
        System.out.printf(Locale.ROOT, "JSONL line building alone / zstd limit = %.2f wall, %.2f CPU%n%n",
                linesOnly.ratio(), linesOnly.cpuRatio());

        if (Boolean.getBoolean("jsonlOnly")) {
            return; // -DjsonlOnly=true: the JSONL comparison alone, a minute instead of several
        }
        System.out.println("| measurement | median ms | records/s | output MB |");
        System.out.println("|---|---:|---:|---:|");
        StringBuilder ratios = new StringBuilder();
        for (String codec : List.of("ZSTD", "SNAPPY")) {
            ParquetObjectEncoder ours = codec.equals("ZSTD") ? ParquetObjectEncoder.zstd() : ParquetObjectEncoder.snappy();
            FlinkRowDataParquet flink = new FlinkRowDataParquet(codec);
            Stopwatch.Comparison run = stopwatch.compare(
                    () -> flink.encode(corpus, new NullSink()), () -> encode(ours, corpus));
            NullSink flinkOut = new NullSink();
            flink.encode(corpus, flinkOut);
            String name = codec.toLowerCase(Locale.ROOT);
            parquetRow("flink-parquet RowData writer, " + name, run.baselineNanos(), records, flinkOut.bytes);
            parquetRow("ParquetObjectEncoder " + name, run.candidateNanos(), records, encode(ours, corpus));
            ratios.append(String.format(Locale.ROOT,
                    "%s: Parquet envelope encoder / flink-parquet = %.2f (median of per-round ratios; target >= 1.00)%n",
                    name, run.ratio()));
        }
        System.out.printf("%n%s", ratios); // after the table, which the ratio lines would otherwise split
    }

    /**
     * What entitles the corpus to be marked as QueenSource marks its records: every payload parses
     * as one JSON value with Jackson's strict defaults. QueenSource's fetch decoder uses the same
     * parser on the payload inside the broker's answer (its source test
     * DecodedPayloadsEncodeAlikeTest checks that whatever it lets through encodes alike).
     */
    private static void requireJsonValues(List<LogRecord> corpus) throws IOException {
        JsonFactory json = new JsonFactory();
        for (LogRecord r : corpus) {
            try (JsonParser parser = json.createParser(r.payload())) {
                if (parser.nextToken() == null) {
                    throw new IllegalStateException("the corpus holds an empty payload: " + r);
                }
                parser.skipChildren();
                if (parser.nextToken() != null) {
                    throw new IllegalStateException("the corpus holds a payload that is not one JSON value: " + r);
                }
            }
        }
    }

    private static long encode(ObjectEncoder encoder, List<LogRecord> corpus) throws IOException {
        NullSink sink = new NullSink();
        encoder.encode(corpus, LABELS, sink);
        return sink.bytes;
    }

    private static byte[] encodeToBytes(ObjectEncoder encoder, List<LogRecord> corpus) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        encoder.encode(corpus, LABELS, out);
        return out.toByteArray();
    }

    /** One frame, fed in the same chunk size the JSONL encoder uses. */
    private static long compressZstd(byte[] input) throws IOException {
        NullSink sink = new NullSink();
        ZstdOutputStreamNoFinalizer zstd = new ZstdOutputStreamNoFinalizer(sink, ZSTD_LEVEL);
        zstd.setChecksum(false);
        zstd.setWorkers(0);
        for (int off = 0; off < input.length; off += CHUNK) {
            zstd.write(input, off, Math.min(CHUNK, input.length - off));
        }
        zstd.closeWithoutClosingParentStream();
        return sink.bytes;
    }

    private static void row(String name, long nanos, long cpuNanos, long jsonlBytes, long outputBytes) {
        System.out.printf(Locale.ROOT, "| %s | %.0f | %.0f | %.0f | %.0f | %.1f |%n", name, nanos / 1e6,
                jsonlBytes / 1e6 / (nanos / 1e9), cpuNanos / 1e6, jsonlBytes / 1e6 / (cpuNanos / 1e9), outputBytes / 1e6);
    }

    private static void parquetRow(String name, long nanos, long records, long outputBytes) {
        System.out.printf(Locale.ROOT, "| %s | %.0f | %.0f | %.1f |%n",
                name, nanos / 1e6, records / (nanos / 1e9), outputBytes / 1e6);
    }

    private static String machine() throws IOException {
        String cpu = Files.readAllLines(Path.of("/proc/cpuinfo")).stream()
                .filter(l -> l.startsWith("model name"))
                .findFirst()
                .map(l -> l.substring(l.indexOf(':') + 1).strip())
                .orElse("unknown");
        return String.format(Locale.ROOT, "machine: %d cores (availableProcessors), %s; JVM %s %s, max heap %d MB",
                Runtime.getRuntime().availableProcessors(), cpu,
                System.getProperty("java.vm.name"), System.getProperty("java.runtime.version"),
                Runtime.getRuntime().maxMemory() >> 20);
    }
}
