package io.queenlake.format.testutils;

import io.queenlake.format.key.Prefix;
import io.queenlake.format.model.Align;
import io.queenlake.format.model.Layout;
import io.queenlake.format.model.LogRecord;
import io.queenlake.format.object.Format;
import io.queenlake.format.window.EncodedObject;
import io.queenlake.format.window.WindowEncoder;
import io.queenlake.format.window.WindowInput;
import io.queenlake.format.window.WriterSettings;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A fixed window (seeded, so every JVM builds the same records) and, as a main, the sha256 of its
 * object in every format, one line each: {@code <writer> <sha256>}.
 */
public final class DeterminismProbe {

    public static final long T0 = 1_791_007_200_000_000L;
    public static final long T1 = T0 + 3_600_000_000L;

    /** Every format and codec, merged and hour-aligned. */
    public static final List<WriterSettings> SETTINGS = Format.ALL.stream()
            .map(f -> new WriterSettings(f, Layout.MERGED, Align.HOUR, WriterSettings.DEFAULT_TARGET_BYTES))
            .toList();

    private static final String[] NAMES = {"cust-1", "cust-2", "cust 42/eu", "r\u00e9gion", "\uD83D\uDE00", "\uFF5E", "a"};

    private DeterminismProbe() {}

    public static List<LogRecord> records() {
        Random random = new Random(20261003L);
        List<LogRecord> out = new ArrayList<>();
        for (String name : NAMES) {
            long ts = T0 + random.nextInt(1_000_000);
            int count = 200 + random.nextInt(400);
            for (int o = 0; o < count; o++) {
                String payload = switch (o % 5) {
                    case 0 -> "";
                    case 1 -> "{\"seq\":" + o + ",\"amount\":" + random.nextInt(10_000) + ".00,\"note\":\"n\u00e8\"}";
                    case 2 -> "{\n  \"pretty\": [" + random.nextLong() + "]\n}";
                    case 3 -> "not json " + random.nextInt();
                    default -> "\"" + "x".repeat(random.nextInt(300)) + "\"";
                };
                out.add(new LogRecord(name, "id-" + name, o, "txn-" + random.nextInt(1000), ts,
                        payload.getBytes(StandardCharsets.UTF_8)));
                ts += random.nextInt(3) == 0 ? 0 : 1 + random.nextInt(5_000_000);
            }
        }
        return out;
    }

    public static WindowInput window(List<LogRecord> records) {
        return new WindowInput("00000000-0000-0000-0000-000000000001", "orders", 1, T0, T1, records, List.of());
    }

    public static List<String> sha256Lines() throws IOException {
        List<String> lines = new ArrayList<>();
        for (WriterSettings s : SETTINGS) {
            WindowEncoder encoder = new WindowEncoder(s, Prefix.DEFAULT, "default");
            for (EncodedObject o : encoder.encode(window(records())).objects()) {
                lines.add(s.describe() + " " + Sha256.hex(o.body()));
            }
        }
        return lines;
    }

    public static void main(String[] args) throws IOException {
        for (String line : sha256Lines()) {
            System.out.println(line);
        }
    }
}
