package io.queenlake.broker.client;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Decodes a fetch answer in one streaming pass and checks it entry by entry against the request.
 *
 * <p>Each payload is sliced out of the body as raw bytes (one copy); nothing is re-serialised.
 */
final class FetchDecoder {

    private FetchDecoder() {}

    static List<FetchedPartition> decode(byte[] body, List<FetchEntry> asked) throws IOException {
        List<FetchedPartition> answered = new ArrayList<>(asked.size());
        boolean sawEntries = false;
        try (JsonCursor c = new JsonCursor(body)) {
            c.next();
            c.requireObject("the fetch answer");
            for (String field = c.nextField(); field != null; field = c.nextField()) {
                if (field.equals("entries")) {
                    sawEntries = true;
                    c.requireArray("entries");
                    while (c.nextElement()) {
                        answered.add(entry(c));
                    }
                } else {
                    c.skipValue();
                }
            }
            c.requireEnd();
        }
        if (!sawEntries) {
            throw new WireFormatException("the fetch answer has no entries");
        }
        Entries.requireAligned(asked.size(), answered.size());
        for (int i = 0; i < asked.size(); i++) {
            FetchEntry a = asked.get(i);
            FetchedPartition p = answered.get(i);
            Entries.requireSame(i, "queue", a.queue(), p.queue());
            Entries.requireSame(i, "partition", a.partition(), p.partition());
        }
        return answered;
    }

    private static FetchedPartition entry(JsonCursor c) throws IOException {
        c.requireObject("a fetch entry");
        String queue = null;
        String partition = null;
        List<FetchedRecord> records = List.of();
        long highWatermark = -1;
        long logStartOffset = -1;
        EntryError error = EntryError.NONE;
        for (String field = c.nextField(); field != null; field = c.nextField()) {
            switch (field) {
                case "queue" -> queue = c.text("queue");
                case "partition" -> partition = c.text("partition");
                case "records" -> records = records(c);
                case "highWatermark" -> highWatermark = c.longValue("highWatermark");
                case "logStartOffset" -> logStartOffset = c.longValue("logStartOffset");
                case "error" -> error = EntryError.fromWire(c.optionalText("error"));
                default -> c.skipValue();
            }
        }
        if (queue == null || partition == null || highWatermark < 0 || logStartOffset < 0) {
            throw new WireFormatException("a fetch entry lacks queue, partition or its bounds");
        }
        return new FetchedPartition(queue, partition, records, highWatermark, logStartOffset, error);
    }

    private static List<FetchedRecord> records(JsonCursor c) throws IOException {
        if (c.isNull()) {
            return List.of();
        }
        c.requireArray("records");
        List<FetchedRecord> records = new ArrayList<>();
        while (c.nextElement()) {
            records.add(record(c));
        }
        return records;
    }

    private static FetchedRecord record(JsonCursor c) throws IOException {
        c.requireObject("a record");
        long offset = -1;
        String transactionId = "";
        long ts = Long.MIN_VALUE;
        byte[] payload = null;
        for (String field = c.nextField(); field != null; field = c.nextField()) {
            switch (field) {
                case "offset" -> offset = c.longValue("offset");
                case "transactionId" -> {
                    String id = c.optionalText("transactionId");
                    transactionId = id == null ? "" : id;
                }
                case "ts" -> ts = c.micros("ts");
                case "payload" -> payload = c.payload();
                default -> c.skipValue();
            }
        }
        if (offset < 0 || ts == Long.MIN_VALUE) {
            throw new WireFormatException("a record lacks its offset or ts");
        }
        return new FetchedRecord(offset, transactionId, ts, payload == null ? new byte[0] : payload);
    }
}
