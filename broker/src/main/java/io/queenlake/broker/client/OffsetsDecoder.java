package io.queenlake.broker.client;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/** Decodes a {@code fetch/offsets} answer and checks it entry by entry against the request. */
final class OffsetsDecoder {

    private OffsetsDecoder() {}

    static List<OffsetAnswer> decode(byte[] body, List<OffsetQuery> asked) throws IOException {
        List<OffsetAnswer> answers = new ArrayList<>(asked.size());
        boolean sawEntries = false;
        try (JsonCursor c = new JsonCursor(body)) {
            c.next();
            c.requireObject("the fetch/offsets answer");
            for (String field = c.nextField(); field != null; field = c.nextField()) {
                if (field.equals("entries")) {
                    sawEntries = true;
                    c.requireArray("entries");
                    while (c.nextElement()) {
                        answers.add(entry(c));
                    }
                } else {
                    c.skipValue();
                }
            }
            c.requireEnd();
        }
        if (!sawEntries) {
            throw new WireFormatException("the fetch/offsets answer has no entries");
        }
        Entries.requireAligned(asked.size(), answers.size());
        for (int i = 0; i < asked.size(); i++) {
            Entries.requireSame(i, "queue", asked.get(i).queue(), answers.get(i).queue());
            Entries.requireSame(i, "partition", asked.get(i).partition(), answers.get(i).partition());
        }
        return answers;
    }

    private static OffsetAnswer entry(JsonCursor c) throws IOException {
        c.requireObject("a fetch/offsets entry");
        String queue = null;
        String partition = null;
        OptionalLong offset = OptionalLong.empty();
        OptionalLong ts = OptionalLong.empty();
        long highWatermark = 0;
        long logStartOffset = 0;
        EntryError error = EntryError.NONE;
        for (String field = c.nextField(); field != null; field = c.nextField()) {
            switch (field) {
                case "queue" -> queue = c.text("queue");
                case "partition" -> partition = c.text("partition");
                case "offset" -> offset = c.optionalLong("offset");
                case "ts" -> ts = c.optionalMicros("ts");
                case "highWatermark" -> highWatermark = c.longValue("highWatermark");
                case "logStartOffset" -> logStartOffset = c.longValue("logStartOffset");
                case "error" -> error = EntryError.fromWire(c.optionalText("error"));
                default -> c.skipValue();
            }
        }
        if (queue == null || partition == null) {
            throw new WireFormatException("a fetch/offsets entry lacks its queue or partition");
        }
        return new OffsetAnswer(queue, partition, offset, ts, highWatermark, logStartOffset, error);
    }
}
