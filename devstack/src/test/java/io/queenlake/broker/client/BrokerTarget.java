package io.queenlake.broker.client;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.queenlake.devstack.broker.DevBroker;
import io.queenlake.devstack.broker.DevBrokerOptions;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The broker the contract suite runs against: the real broker named by {@code QUEEN_URL} (with
 * {@code QUEEN_TOKEN}) when set, else an in-process dev broker with a token and a clock the test
 * can move forward. Dev-only hooks sit behind assumptions that say why they need the dev broker.
 */
final class BrokerTarget implements AutoCloseable {

    static final String DEFAULT_TENANT = "00000000-0000-0000-0000-000000000001";
    private static final String DEV_TOKEN = "contract-secret";

    private final String url;
    private final String token;
    private final DevBroker dev;
    private final AtomicLong skewMicros;
    private final HttpQueenClient client;
    private final HttpClient raw = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private BrokerTarget(String url, String token, DevBroker dev, AtomicLong skewMicros) {
        this.url = url;
        this.token = token;
        this.dev = dev;
        this.skewMicros = skewMicros;
        this.client = clientWithToken(token);
    }

    static BrokerTarget fromEnvironment() throws IOException {
        String url = System.getenv("QUEEN_URL");
        if (url != null && !url.isBlank()) {
            String token = System.getenv("QUEEN_TOKEN");
            return new BrokerTarget(url, token == null || token.isBlank() ? null : token, null, null);
        }
        AtomicLong skew = new AtomicLong();
        DevBroker broker = DevBroker.start(DevBrokerOptions.builder()
                .host("127.0.0.1")
                .port(0)
                .token(DEV_TOKEN)
                .clock(() -> wallMicros() + skew.get())
                .build());
        return new BrokerTarget(broker.url().toString(), DEV_TOKEN, broker, skew);
    }

    private static long wallMicros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    }

    /** A client with the target's token, default tenant. */
    QueenClient client() {
        return client;
    }

    String url() {
        return url;
    }

    Optional<String> token() {
        return Optional.ofNullable(token);
    }

    boolean isDev() {
        return dev != null;
    }

    HttpQueenClient clientWithToken(String bearer) {
        return HttpQueenClient.builder().baseUrl(url).token(bearer).requestTimeout(Duration.ofSeconds(60)).build();
    }

    HttpQueenClient clientForTenant(String tenant) {
        return HttpQueenClient.builder().baseUrl(url).token(token).tenant(tenant).build();
    }

    /** The dev broker, for a rule only it can show; {@code why} says why the real broker cannot. */
    DevBroker devOnly(String why) {
        assumeTrue(dev != null, why);
        return dev;
    }

    /** Moves the broker's clock forward: the dev clock jumps, a real broker is waited for. */
    void passTime(Duration d) throws InterruptedException {
        if (dev != null) {
            skewMicros.addAndGet(d.toNanos() / 1_000);
        } else {
            Thread.sleep(d.toMillis());
        }
    }

    /** A queue name no other test (or user of a shared broker) has. */
    static String uniqueQueue(String stem) {
        return "qlc-" + stem + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    static String uniqueTxn() {
        return "t-" + UUID.randomUUID();
    }

    List<PushResult> push(String queue, String partition, String... payloads) {
        List<PushItem> items = new ArrayList<>();
        for (String payload : payloads) {
            items.add(PushItem.of(queue, partition, uniqueTxn(), payload));
        }
        return client.push(items);
    }

    FetchedPartition read(String queue, String partition, long offset, int maxBytes) {
        return client.fetch(FetchRequest.immediate(List.of(FetchEntry.of(queue, partition, offset, maxBytes)))).get(0);
    }

    /** Every record from {@code offset} to the high watermark, page by page. */
    List<FetchedRecord> readAll(String queue, String partition, long offset) {
        List<FetchedRecord> all = new ArrayList<>();
        long next = offset;
        for (int page = 0; page < 10_000; page++) {
            FetchedPartition p = read(queue, partition, next, 8 << 20);
            if (p.error() != EntryError.NONE) {
                throw new AssertionError("reading " + queue + "/" + partition + " at " + next + " answered " + p.error());
            }
            if (p.records().isEmpty()) {
                return all;
            }
            all.addAll(p.records());
            next = p.records().get(p.records().size() - 1).offset() + 1;
        }
        throw new AssertionError("reading " + queue + "/" + partition + " did not reach the end in 10,000 pages");
    }

    long safeTime() {
        return client.partitionsChanged(List.of()).safeTimeMicros();
    }

    /** What the broker answered to a hand-made request. */
    record RawAnswer(int status, String body) {}

    /** A request the typed client cannot express (a numeric partition, a missing field, a bad header). */
    RawAnswer raw(String path, String body, String... headers) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url.replaceAll("/+$", "") + path))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        for (int i = 0; i + 1 < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        HttpResponse<String> answer = raw.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        return new RawAnswer(answer.statusCode(), answer.body());
    }

    @Override
    public void close() {
        if (dev != null) {
            dev.close();
        }
    }
}
