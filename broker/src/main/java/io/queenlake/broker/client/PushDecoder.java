package io.queenlake.broker.client;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** Decodes a push answer: a top-level array, one element per pushed item. */
final class PushDecoder {

    private PushDecoder() {}

    static List<PushResult> decode(byte[] body, List<PushItem> items) throws IOException {
        List<PushResult> results = new ArrayList<>(items.size());
        try (JsonCursor c = new JsonCursor(body)) {
            c.next();
            c.requireArray("the push answer");
            while (c.nextElement()) {
                results.add(element(c, results.size()));
            }
            c.requireEnd();
        }
        Entries.requireAligned(items.size(), results.size());
        for (int i = 0; i < items.size(); i++) {
            if (items.get(i).transactionId().isPresent()) {
                Entries.requireSame(i, "transaction_id", items.get(i).transactionId().get(), results.get(i).transactionId());
            }
        }
        return results;
    }

    private static PushResult element(JsonCursor c, int position) throws IOException {
        c.requireObject("a push result");
        int index = position;
        String transactionId = "";
        String status = null;
        long offset = -1;
        for (String field = c.nextField(); field != null; field = c.nextField()) {
            switch (field) {
                case "index" -> index = (int) c.longValue("index");
                case "transaction_id", "transactionId" -> {
                    String id = c.optionalText("transaction_id");
                    transactionId = id == null ? "" : id;
                }
                case "status" -> status = c.text("status");
                case "offset" -> offset = c.optionalLong("offset").orElse(-1);
                default -> c.skipValue();
            }
        }
        if (status == null) {
            throw new WireFormatException("a push result has no status");
        }
        return new PushResult(index, transactionId, PushResult.PushStatus.fromWire(status), offset);
    }
}
