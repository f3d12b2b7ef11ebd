package io.queenlake.broker.client;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Decodes a {@code partitions/changed} answer and checks its entries against the request's queues. */
final class ChangedDecoder {

    private ChangedDecoder() {}

    static ChangedPage decode(byte[] body, List<ChangedQuery> asked) throws IOException {
        long safeTime = Long.MIN_VALUE;
        boolean degraded = false;
        List<ChangedEntry> entries = new ArrayList<>(asked.size());
        try (JsonCursor c = new JsonCursor(body)) {
            c.next();
            c.requireObject("the partitions/changed answer");
            for (String field = c.nextField(); field != null; field = c.nextField()) {
                switch (field) {
                    case "safeTime" -> safeTime = c.micros("safeTime");
                    case "safeTimeDegraded" -> degraded = !c.isNull() && c.booleanValue("safeTimeDegraded");
                    case "entries" -> {
                        c.requireArray("entries");
                        while (c.nextElement()) {
                            entries.add(entry(c));
                        }
                    }
                    default -> c.skipValue();
                }
            }
            c.requireEnd();
        }
        if (safeTime == Long.MIN_VALUE) {
            throw new WireFormatException("the partitions/changed answer has no safeTime");
        }
        Entries.requireAligned(asked.size(), entries.size());
        for (int i = 0; i < asked.size(); i++) {
            Entries.requireSame(i, "queue", asked.get(i).queue(), entries.get(i).queue());
        }
        return new ChangedPage(safeTime, degraded, entries);
    }

    private static ChangedEntry entry(JsonCursor c) throws IOException {
        c.requireObject("a partitions/changed entry");
        String queue = null;
        List<PartitionInfo> partitions = new ArrayList<>();
        String next = null;
        EntryError error = EntryError.NONE;
        for (String field = c.nextField(); field != null; field = c.nextField()) {
            switch (field) {
                case "queue" -> queue = c.text("queue");
                case "next" -> next = c.optionalText("next");
                case "error" -> error = EntryError.fromWire(c.optionalText("error"));
                case "partitions" -> {
                    if (!c.isNull()) {
                        c.requireArray("partitions");
                        while (c.nextElement()) {
                            partitions.add(partition(c));
                        }
                    }
                }
                default -> c.skipValue();
            }
        }
        if (queue == null) {
            throw new WireFormatException("a partitions/changed entry has no queue");
        }
        return new ChangedEntry(queue, partitions, Optional.ofNullable(next), error);
    }

    private static PartitionInfo partition(JsonCursor c) throws IOException {
        c.requireObject("a partition");
        String name = null;
        String id = "";
        long lastOffset = Long.MIN_VALUE;
        long logStart = 0;
        long lastWriteAt = Long.MIN_VALUE;
        for (String field = c.nextField(); field != null; field = c.nextField()) {
            switch (field) {
                case "name" -> name = c.text("name");
                case "id" -> {
                    String text = c.optionalText("id");
                    id = text == null ? "" : text;
                }
                case "lastOffset" -> lastOffset = c.longValue("lastOffset");
                case "logStart" -> logStart = c.longValue("logStart");
                case "lastWriteAt" -> lastWriteAt = c.isNull() ? Long.MIN_VALUE : c.micros("lastWriteAt");
                default -> c.skipValue();
            }
        }
        if (name == null || lastOffset == Long.MIN_VALUE) {
            throw new WireFormatException("a partition lacks its name or lastOffset");
        }
        return new PartitionInfo(name, id, lastOffset, logStart, lastWriteAt);
    }
}
