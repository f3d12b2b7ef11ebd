package io.queenlake.broker.client;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/** Renders request bodies exactly as docs/BROKER-API.md spells them. Raw JSON values are written verbatim. */
final class WireRequests {

    private WireRequests() {}

    @FunctionalInterface
    private interface Body {
        void write(JsonGenerator g) throws IOException;
    }

    private static byte[] render(Body body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        try (JsonGenerator g = JsonCursor.FACTORY.createGenerator(out)) {
            body.write(g);
        } catch (IOException e) {
            throw new UncheckedIOException("rendering a request body in memory failed", e);
        }
        return out.toByteArray();
    }

    static byte[] fetch(FetchRequest request) {
        return render(g -> {
            g.writeStartObject();
            g.writeArrayFieldStart("entries");
            for (FetchEntry e : request.entries()) {
                g.writeStartObject();
                g.writeStringField("queue", e.queue());
                g.writeStringField("partition", e.partition());
                g.writeNumberField("offset", e.offset());
                if (e.maxBytes().isPresent()) {
                    g.writeNumberField("maxBytes", e.maxBytes().getAsInt());
                }
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeNumberField("maxWaitMs", request.maxWaitMs());
            g.writeNumberField("minBytes", request.minBytes());
            g.writeEndObject();
        });
    }

    static byte[] fetchOffsets(List<OffsetQuery> queries) {
        return render(g -> {
            g.writeStartObject();
            g.writeArrayFieldStart("entries");
            for (OffsetQuery q : queries) {
                g.writeStartObject();
                g.writeStringField("queue", q.queue());
                g.writeStringField("partition", q.partition());
                g.writeNumberField("timestamp", q.timestampMillis());
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        });
    }

    static byte[] partitionsChanged(List<ChangedQuery> queries) {
        return render(g -> {
            g.writeStartObject();
            g.writeArrayFieldStart("entries");
            for (ChangedQuery q : queries) {
                g.writeStartObject();
                g.writeStringField("queue", q.queue());
                if (q.sinceMicros().isPresent()) {
                    g.writeStringField("since", BrokerTime.render(q.sinceMicros().getAsLong()));
                } else {
                    g.writeNullField("since");
                }
                if (q.after().isPresent()) {
                    g.writeStringField("after", q.after().get());
                } else {
                    g.writeNullField("after");
                }
                g.writeNumberField("limit", q.limit());
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        });
    }

    static byte[] kv(List<KvOp> ops) {
        return render(g -> {
            g.writeStartObject();
            g.writeArrayFieldStart("operations");
            for (KvOp op : ops) {
                g.writeStartObject();
                g.writeStringField("ns", op.ns());
                kvOp(g, op);
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        });
    }

    private static void kvOp(JsonGenerator g, KvOp op) throws IOException {
        if (op instanceof KvOp.Get get) {
            g.writeStringField("op", "get");
            g.writeStringField("key", get.key());
        } else if (op instanceof KvOp.GetMany many) {
            g.writeStringField("op", "getMany");
            g.writeArrayFieldStart("keys");
            for (String key : many.keys()) {
                g.writeString(key);
            }
            g.writeEndArray();
        } else if (op instanceof KvOp.GetPrefix prefix) {
            g.writeStringField("op", "getPrefix");
            g.writeStringField("prefix", prefix.prefix());
            g.writeNumberField("limit", prefix.limit());
            if (prefix.after().isPresent()) {
                g.writeStringField("after", prefix.after().get());
            }
        } else if (op instanceof KvOp.Put put) {
            g.writeStringField("op", "put");
            g.writeStringField("key", put.key());
            value(g, put.value());
            expiry(g, put.expiry());
            expect(g, put.expect());
            required(g, put.required());
        } else if (op instanceof KvOp.PutIfAbsent put) {
            g.writeStringField("op", "putIfAbsent");
            g.writeStringField("key", put.key());
            value(g, put.value());
            expiry(g, put.expiry());
            required(g, put.required());
        } else if (op instanceof KvOp.Delete delete) {
            g.writeStringField("op", "delete");
            g.writeStringField("key", delete.key());
            expect(g, delete.expect());
            required(g, delete.required());
        }
    }

    private static void value(JsonGenerator g, RawJson value) throws IOException {
        value(g, value, "value");
    }

    private static void expiry(JsonGenerator g, KvExpiry expiry) throws IOException {
        if (expiry.isForever()) {
            g.writeBooleanField("forever", true);
        } else {
            g.writeNumberField("ttlSeconds", expiry.ttlSeconds());
        }
    }

    private static void expect(JsonGenerator g, KvExpect expect) throws IOException {
        if (expect instanceof KvExpect.Absent) {
            g.writeNumberField("expect", 0);
        } else if (expect instanceof KvExpect.Version v) {
            g.writeNumberField("expect", v.version());
        }
    }

    private static void required(JsonGenerator g, boolean required) throws IOException {
        if (required) {
            g.writeBooleanField("required", true);
        }
    }

    static byte[] push(List<PushItem> items) {
        return render(g -> {
            g.writeStartObject();
            g.writeArrayFieldStart("items");
            for (PushItem item : items) {
                g.writeStartObject();
                g.writeStringField("queue", item.queue());
                g.writeStringField("partition", item.partition());
                if (item.transactionId().isPresent()) {
                    g.writeStringField("transactionId", item.transactionId().get());
                }
                value(g, item.payload(), "payload");
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        });
    }

    private static void value(JsonGenerator g, RawJson value, String field) throws IOException {
        g.writeFieldName(field);
        g.writeRawValue(value.text());
    }

    static byte[] configure(String queue, QueueOptions options) {
        return render(g -> {
            g.writeStartObject();
            g.writeStringField("queue", queue);
            g.writeObjectFieldStart("options");
            if (options.retentionEnabled().isPresent()) {
                g.writeBooleanField("retentionEnabled", options.retentionEnabled().get());
            }
            if (options.retentionSeconds().isPresent()) {
                g.writeNumberField("retentionSeconds", options.retentionSeconds().getAsLong());
            }
            if (options.retentionSinkHold().isPresent()) {
                g.writeStringField("retentionSinkHold", options.retentionSinkHold().get());
            }
            if (options.retentionSinkHoldMaxSeconds().isPresent()) {
                g.writeNumberField("retentionSinkHoldMaxSeconds", options.retentionSinkHoldMaxSeconds().getAsLong());
            }
            g.writeEndObject();
            g.writeEndObject();
        });
    }
}
