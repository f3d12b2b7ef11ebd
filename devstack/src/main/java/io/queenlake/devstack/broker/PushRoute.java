package io.queenlake.devstack.broker;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.queenlake.devstack.broker.JournalEntry.PartitionCreated;
import io.queenlake.devstack.broker.JournalEntry.QueueCreated;
import io.queenlake.devstack.broker.JournalEntry.RecordAppended;
import io.queenlake.format.jsonl.PayloadText;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code POST /api/v1/push}: appends items to their partitions under one stamp, creating queues and
 * partitions on first use, answering a retried transaction id as {@code duplicate} with its
 * original offset. Payloads are stored as the exact text the producer sent, once it is one JSON
 * text in well-formed UTF-8: an overlong form, an encoded surrogate or a byte above F4 refuses the
 * push as serde_json refuses it, so no such bytes ever reach the lake through this broker.
 */
final class PushRoute implements Route {

    record Item(String queue, String partition, String transactionId, byte[] payload) {}

    record Outcome(String transactionId, boolean duplicate, long offset) {}

    private final BrokerState state;

    PushRoute(BrokerState state) {
        this.state = state;
    }

    @Override
    public void handle(Call call, Reply reply) throws IOException {
        List<Item> items = parse(call.body());
        List<Outcome> outcomes = push(state, call.tenant(), items);
        JsonGenerator out = reply.json(201);
        out.writeStartArray();
        for (int i = 0; i < outcomes.size(); i++) {
            Outcome o = outcomes.get(i);
            out.writeStartObject();
            out.writeNumberField("index", i);
            out.writeStringField("transaction_id", o.transactionId());
            out.writeStringField("status", o.duplicate() ? "duplicate" : "queued");
            out.writeNumberField("offset", o.offset());
            out.writeEndObject();
        }
        out.writeEndArray();
        reply.send();
    }

    /** Appends {@code items} as one write: one stamp for all of them. */
    static List<Outcome> push(BrokerState state, String tenant, List<Item> items) throws IOException {
        return state.write(change -> {
            List<Outcome> outcomes = new ArrayList<>(items.size());
            long stamp = change.stamp();
            for (Item item : items) {
                PartitionLog log = partitionFor(change, tenant, item, stamp);
                String tx = item.transactionId() != null ? item.transactionId() : TimeOrderedIds.mint(stamp).toString();
                DedupIndex.Seen seen = log.duplicateOf(tx, stamp);
                if (seen != null) {
                    outcomes.add(new Outcome(tx, true, seen.offset()));
                    continue;
                }
                long offset = log.bounds().highWatermark();
                change.apply(new RecordAppended(tenant, item.queue(), item.partition(), offset, stamp, tx, item.payload()));
                outcomes.add(new Outcome(tx, false, offset));
            }
            return outcomes;
        });
    }

    private static PartitionLog partitionFor(BrokerState.Change change, String tenant, Item item, long stamp) {
        BrokerState state = change.state();
        if (state.queue(tenant, item.queue()) == null) {
            change.apply(new QueueCreated(tenant, item.queue()));
        }
        BrokerQueue queue = state.queue(tenant, item.queue());
        PartitionLog log = queue.partition(item.partition());
        if (log == null) {
            change.apply(new PartitionCreated(tenant, item.queue(), item.partition(), TimeOrderedIds.mint(stamp),
                    change.nextPid(), 0, 0));
            log = queue.partition(item.partition());
        }
        return log;
    }

    static List<Item> parse(byte[] body) {
        if (body.length == 0) {
            throw WireError.badBody("the request has no body; send {\"items\":[...]}");
        }
        List<Item> items = new ArrayList<>();
        try (JsonParser p = WireJson.parser(body)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw WireError.badBody("the request body must be a JSON object with an items array");
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken t = p.nextToken();
                if (!"items".equals(field)) {
                    p.skipChildren();
                    continue;
                }
                if (t != JsonToken.START_ARRAY) {
                    throw WireError.badBody("items must be an array");
                }
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    items.add(item(p, body, items.size()));
                }
            }
        } catch (JsonParseException e) {
            throw WireError.badBody("the request body is not JSON (" + e.getOriginalMessage() + ")");
        } catch (IOException e) {
            throw WireError.badBody("the request body could not be read (" + e.getMessage() + ")");
        }
        return items;
    }

    private static Item item(JsonParser p, byte[] body, int index) throws IOException {
        if (p.currentToken() != JsonToken.START_OBJECT) {
            throw WireError.badBody("item " + index + " must be an object with queue and payload");
        }
        String queue = null;
        String partition = WireJson.DEFAULT_PARTITION;
        String tx = null;
        byte[] payload = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken t = p.nextToken();
            switch (field) {
                case "queue" -> {
                    if (t != JsonToken.VALUE_STRING || p.getText().isEmpty()) {
                        throw WireError.badBody("item " + index + " has no queue name; queue must be a non-empty string");
                    }
                    queue = p.getText();
                }
                case "partition" -> partition = WireJson.partitionName(p);
                case "transactionId" -> {
                    if (t == JsonToken.VALUE_STRING) {
                        tx = p.getText().isEmpty() ? null : p.getText();
                    } else if (t != JsonToken.VALUE_NULL) {
                        throw WireError.badBody("item " + index + " has a transactionId that is not a string");
                    }
                }
                case "payload" -> payload = WireJson.rawValue(p, body);
                case "data" -> throw WireError.badBody("item " + index + " carries data; the field is named payload");
                default -> p.skipChildren();
            }
        }
        if (queue == null) {
            throw WireError.badBody("item " + index + " has no queue; every item names its queue");
        }
        if (payload == null) {
            throw WireError.badBody("item " + index + " has no payload; every item carries a payload");
        }
        if (!PayloadText.isJson(payload)) {
            // serde_json refuses the body the same way: Jackson skipped the value without checking its UTF-8
            throw WireError.badBody("the request body is not JSON (item " + index + "'s payload: "
                    + PayloadText.whyRewritten(payload) + ")");
        }
        return new Item(queue, partition, tx, payload);
    }
}
