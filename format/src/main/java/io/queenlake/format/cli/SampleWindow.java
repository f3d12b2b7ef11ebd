package io.queenlake.format.cli;

import io.queenlake.format.manifest.ManifestJson;
import io.queenlake.format.model.LogRecord;
import io.queenlake.format.model.Micros;
import io.queenlake.format.window.WindowInput;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A small, fixed lake sample: queue {@code orders} of the default tenant, two hour-aligned
 * windows on 2026-10-03 (06:00-07:00 as k=1, 07:00-08:00 as k=2), partitions whose names need
 * escaping or sort differently in UTF-8 and UTF-16, and payloads that test the verbatim splice
 * (pretty-printed, big numbers, {@code -0}, escapes, raw U+2028, empty, not JSON).
 */
public final class SampleWindow {

    public static final String TENANT = ManifestJson.DEFAULT_TENANT;
    public static final String QUEUE = "orders";
    /** 2026-10-03T06:00:00Z. */
    public static final long HOUR_6 = 1_791_007_200_000_000L;
    public static final long HOUR_7 = HOUR_6 + Micros.PER_HOUR;
    public static final long HOUR_8 = HOUR_7 + Micros.PER_HOUR;

    public static final List<String> PARTITIONS = List.of(
            "cust-1", "cust 42/eu", "r\u00e9gion-eu", "\uD83D\uDE00", "\uFF5E");

    /** Payload texts, raw bytes as a producer sent them; index 4 is empty, index 5 is not JSON. */
    public static final List<byte[]> PAYLOADS = List.of(
            utf8("{\"order\":1,\"total\":42.00}"),
            utf8("{\n  \"a\": [1, 2],\r\n  \"b\": \"x y\"\n}"),
            utf8("123456789012345678901234567890"),
            utf8("{\"big\":1E+400,\"neg\":-0,\"tiny\":2.5e-400}"),
            new byte[0],
            utf8("not json {"),
            utf8("{\"s\":\"quote \\\" backslash \\\\ ctl \\u0001 sep \u2028 del \u007f smile \uD83D\uDE00\"}"),
            utf8("[true,false,null,\"caff\u00e8\"]"));

    private SampleWindow() {}

    /** The records of both windows, in an arrival order that interleaves partitions. */
    public static List<LogRecord> records() {
        List<LogRecord> out = new ArrayList<>();
        int records = 6;
        for (int i = 0; i < records; i++) {
            for (int p = 0; p < PARTITIONS.size(); p++) {
                // the first hour gets four records of each partition, the second hour two
                long hourStart = i < 4 ? HOUR_6 : HOUR_7;
                long ts = hourStart + 60_000_000L * (i % 4 + 1) + 1_234_567L * p + 501_942L;
                if (p == 1 && i == 2) {
                    ts = hourStart + 60_000_000L * (i % 4 + 1) + 501_942L; // shares a stamp with partition 0
                }
                String txn = p == 2 && i == 1 ? "" : "txn-" + p + "-" + i + (p == 3 ? "\t\"q\"" : "");
                byte[] payload = PAYLOADS.get((i * PARTITIONS.size() + p) % PAYLOADS.size());
                out.add(new LogRecord(PARTITIONS.get(p), "id-" + p, i, txn, ts, payload));
            }
        }
        return out;
    }

    /** The two windows of the sample. */
    public static List<WindowInput> windows() {
        List<LogRecord> all = records();
        return List.of(
                new WindowInput(TENANT, QUEUE, 1, HOUR_6, HOUR_7,
                        all.stream().filter(r -> r.tsMicros() < HOUR_7).toList(), List.of()),
                new WindowInput(TENANT, QUEUE, 2, HOUR_7, HOUR_8,
                        all.stream().filter(r -> r.tsMicros() >= HOUR_7).toList(), List.of()));
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
