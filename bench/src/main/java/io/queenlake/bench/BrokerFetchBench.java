package io.queenlake.bench;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.queenlake.devstack.broker.DevBroker;
import io.queenlake.devstack.broker.DevBrokerOptions;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * How fast the dev broker serves fetch answers over HTTP: preloads records of about 300 B over many
 * partitions, then reads every partition from offset 0 to its head with 1024-entry fetch requests
 * ({@code java.net.http}), and reports MB/s of payload delivered. The client only walks the answer's
 * tokens (offsets and payload extents), so the figure is close to what the broker itself sustains.
 *
 * <p>Arguments (all optional): {@code records partitions payloadBytes clients}, default
 * {@code 1000000 200 300 1}. Clients split the partitions between them.
 */
public final class BrokerFetchBench {

    private static final int ENTRIES_PER_REQUEST = 1024;
    private static final int PUSH_BATCH = 5_000;
    private static final JsonFactory JSON = new JsonFactory();

    private BrokerFetchBench() {}

    public static void main(String[] args) throws Exception {
        int records = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        int partitions = args.length > 1 ? Integer.parseInt(args[1]) : 200;
        int payloadBytes = args.length > 2 ? Integer.parseInt(args[2]) : 300;
        int clients = args.length > 3 ? Integer.parseInt(args[3]) : 1;
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        try (DevBroker broker = DevBroker.start(DevBrokerOptions.builder().build())) {
            long t0 = System.nanoTime();
            long pushedPayload = preload(http, broker.url(), records, partitions, payloadBytes);
            double preloadSeconds = (System.nanoTime() - t0) / 1e9;
            System.out.printf(Locale.ROOT, "preloaded %d records (%.1f MB payload) over %d partitions in %.1f s%n",
                    records, pushedPayload / 1e6, partitions, preloadSeconds);

            for (int round = 1; round <= 3; round++) {
                long start = System.nanoTime();
                ExecutorService pool = Executors.newFixedThreadPool(clients);
                List<Future<long[]>> results = new ArrayList<>();
                for (int c = 0; c < clients; c++) {
                    List<String> mine = new ArrayList<>();
                    for (int p = c; p < partitions; p += clients) {
                        mine.add("p-" + p);
                    }
                    results.add(pool.submit(() -> readAll(http, broker.url(), mine)));
                }
                long payload = 0;
                long answerBytes = 0;
                long read = 0;
                long requests = 0;
                for (Future<long[]> f : results) {
                    long[] r = f.get();
                    read += r[0];
                    payload += r[1];
                    answerBytes += r[2];
                    requests += r[3];
                }
                pool.shutdown();
                double seconds = (System.nanoTime() - start) / 1e9;
                if (read != records) {
                    throw new IllegalStateException("read " + read + " records but " + records + " were pushed");
                }
                System.out.printf(Locale.ROOT,
                        "round %d: %d records, %d requests, %.1f MB payload (%.1f MB answers) in %.2f s = %.1f MB/s payload, %.0f records/s%n",
                        round, read, requests, payload / 1e6, answerBytes / 1e6, seconds, payload / 1e6 / seconds, read / seconds);
            }
        }
    }

    private static long preload(HttpClient http, URI base, int records, int partitions, int payloadBytes)
            throws IOException, InterruptedException {
        long payloadTotal = 0;
        StringBuilder body = new StringBuilder();
        for (int from = 0; from < records; from += PUSH_BATCH) {
            body.setLength(0);
            body.append("{\"items\":[");
            for (int i = from; i < Math.min(records, from + PUSH_BATCH); i++) {
                String head = "{\"id\":" + i + ",\"customer\":\"cust-" + (i % 977) + "\",\"pad\":\"";
                int pad = Math.max(0, payloadBytes - head.length() - 2);
                String payload = head + "x".repeat(pad) + "\"}";
                payloadTotal += payload.length();
                body.append(i == from ? "" : ",").append("{\"queue\":\"bench\",\"partition\":\"p-").append(i % partitions)
                        .append("\",\"transactionId\":\"tx-").append(i).append("\",\"payload\":").append(payload).append('}');
            }
            body.append("]}");
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(base.resolve("/api/v1/push"))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body.toString())).build(), HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 201) {
                throw new IllegalStateException("push answered " + r.statusCode() + ": " + r.body());
            }
        }
        return payloadTotal;
    }

    /** Reads {@code partitions} to their heads; answers {records, payload bytes, answer bytes, requests}. */
    private static long[] readAll(HttpClient http, URI base, List<String> partitions) throws IOException, InterruptedException {
        long[] next = new long[partitions.size()];
        boolean[] done = new boolean[partitions.size()];
        long records = 0;
        long payload = 0;
        long answerBytes = 0;
        long requests = 0;
        int remaining = partitions.size();
        while (remaining > 0) {
            List<Integer> asked = new ArrayList<>();
            StringBuilder body = new StringBuilder("{\"entries\":[");
            for (int i = 0; i < partitions.size() && asked.size() < ENTRIES_PER_REQUEST; i++) {
                if (!done[i]) {
                    body.append(asked.isEmpty() ? "" : ",").append("{\"queue\":\"bench\",\"partition\":\"")
                            .append(partitions.get(i)).append("\",\"offset\":").append(next[i]).append('}');
                    asked.add(i);
                }
            }
            body.append("],\"maxWaitMs\":0,\"minBytes\":1}");
            HttpResponse<InputStream> r = http.send(HttpRequest.newBuilder(base.resolve("/api/v1/fetch"))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body.toString())).build(), HttpResponse.BodyHandlers.ofInputStream());
            requests++;
            if (r.statusCode() != 200) {
                throw new IllegalStateException("fetch answered " + r.statusCode());
            }
            try (InputStream in = r.body(); JsonParser p = JSON.createParser(in)) {
                int entry = -1;
                long hwm = 0;
                while (p.nextToken() != null) {
                    if (p.currentToken() != JsonToken.FIELD_NAME) {
                        continue;
                    }
                    String field = p.currentName();
                    p.nextToken();
                    switch (field) {
                        case "queue" -> entry++;
                        case "offset" -> {
                            next[asked.get(entry)] = p.getLongValue() + 1;
                            records++;
                        }
                        case "payload" -> {
                            long startByte = p.currentTokenLocation().getByteOffset();
                            p.skipChildren();
                            payload += p.currentLocation().getByteOffset() - startByte;
                        }
                        case "highWatermark" -> hwm = p.getLongValue();
                        case "logStartOffset" -> {
                            int idx = asked.get(entry);
                            if (next[idx] >= hwm) {
                                done[idx] = true;
                                remaining--;
                            }
                        }
                        case "entries", "records" -> { }
                        default -> p.skipChildren();
                    }
                }
                answerBytes += p.currentLocation().getByteOffset();
            }
        }
        return new long[] {records, payload, answerBytes, requests};
    }
}
