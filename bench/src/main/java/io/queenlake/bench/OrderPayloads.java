package io.queenlake.bench;

import java.util.Random;

/**
 * Seeded order-like JSON payloads of about 300 bytes, with a short free-text note so they do not
 * compress unrealistically well. The same seed gives the same payload sequence. One generator for
 * FormatBench's corpus and the end-to-end corpus, so both measure the same kind of record.
 */
public final class OrderPayloads {
    private static final String[] WORDS = {
        "express", "gift", "fragile", "weekend", "door", "leave", "call", "first", "floor", "back",
        "office", "reception", "signature", "pickup", "window", "garage", "neighbour", "code", "late", "ring"
    };

    private final Random random;

    public OrderPayloads(long seed) {
        this.random = new Random(seed);
    }

    public String next() {
        return order(random);
    }

    /** The next payload drawn from {@code random}. */
    public static String order(Random random) {
        StringBuilder json = new StringBuilder(320);
        json.append("{\"orderId\":").append(100_000_000 + random.nextInt(900_000_000))
                .append(",\"status\":\"").append(random.nextBoolean() ? "created" : "paid")
                .append("\",\"currency\":\"EUR\",\"items\":[");
        int items = 3 + random.nextInt(2);
        for (int i = 0; i < items; i++) {
            json.append(i == 0 ? "" : ",")
                    .append("{\"sku\":\"SKU-").append(10_000 + random.nextInt(90_000))
                    .append("\",\"qty\":").append(1 + random.nextInt(9))
                    .append(",\"price\":").append(random.nextInt(500)).append('.').append(10 + random.nextInt(90))
                    .append('}');
        }
        json.append("],\"total\":").append(random.nextInt(5_000)).append('.').append(10 + random.nextInt(90))
                .append(",\"note\":\"");
        for (int w = 0; w < 7; w++) {
            json.append(w == 0 ? "" : " ").append(WORDS[random.nextInt(WORDS.length)]);
        }
        return json.append("\"}").toString();
    }
}
