package io.queenlake.broker.client;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Decodes a KV batch answer: index-aligned results, or the {@code kv_precondition} envelope.
 *
 * <p>Every result field is read in one pass into a {@link Fields} holder, then shaped by the op at
 * the same index, since results name their op only loosely across broker versions.
 */
final class KvDecoder {

    private KvDecoder() {}

    static KvAnswer decode(byte[] body, List<KvOp> ops) throws IOException {
        boolean ok = true;
        String reason = null;
        int failedIndex = 0;
        String kvReason = null;
        OptionalLong version = OptionalLong.empty();
        byte[] value = null;
        List<Fields> results = null;
        try (JsonCursor c = new JsonCursor(body)) {
            c.next();
            c.requireObject("the KV answer");
            for (String field = c.nextField(); field != null; field = c.nextField()) {
                switch (field) {
                    case "ok" -> ok = c.booleanValue("ok");
                    case "reason" -> reason = c.optionalText("reason");
                    case "failedIndex" -> failedIndex = (int) c.longValue("failedIndex");
                    case "kvReason" -> kvReason = c.optionalText("kvReason");
                    case "version" -> version = c.optionalLong("version");
                    case "value" -> value = c.rawValue();
                    case "results" -> {
                        c.requireArray("results");
                        results = new ArrayList<>();
                        while (c.nextElement()) {
                            results.add(Fields.read(c));
                        }
                    }
                    default -> c.skipValue();
                }
            }
            c.requireEnd();
        }
        if (!ok) {
            if (!"kv_precondition".equals(reason)) {
                throw new WireFormatException("the KV answer is ok:false with reason '" + reason + "'");
            }
            RawJson winner = value == null || isNullLiteral(value) ? null : RawJson.owning(value);
            return new KvAnswer.PreconditionFailed(
                    failedIndex,
                    Optional.ofNullable(kvReason).map(KvReason::fromWire),
                    version.isPresent() && version.getAsLong() != 0 ? Optional.of(version.getAsLong()) : Optional.empty(),
                    Optional.ofNullable(winner));
        }
        if (results == null) {
            throw new WireFormatException("the KV answer has neither results nor ok:false");
        }
        Entries.requireAligned(ops.size(), results.size());
        List<KvResult> shaped = new ArrayList<>(ops.size());
        for (int i = 0; i < ops.size(); i++) {
            Fields f = results.get(i);
            if (f.index.isPresent() && f.index.getAsLong() != i) {
                throw new EntryMismatchException("KV result " + i + " carries index " + f.index.getAsLong());
            }
            shaped.add(f.shape(ops.get(i)));
        }
        return new KvAnswer.Results(shaped);
    }

    private static boolean isNullLiteral(byte[] json) {
        return json.length == 4 && json[0] == 'n' && json[1] == 'u' && json[2] == 'l' && json[3] == 'l';
    }

    /** Every field any KV result may carry. */
    private static final class Fields {
        OptionalLong index = OptionalLong.empty();
        boolean found;
        boolean applied;
        String key;
        byte[] value;
        long version;
        OptionalLong expiresAt = OptionalLong.empty();
        OptionalLong updatedAt = OptionalLong.empty();
        String reason;
        List<KvRow> rows = List.of();
        List<String> missing = List.of();
        boolean truncated;
        String nextAfter;

        static Fields read(JsonCursor c) throws IOException {
            c.requireObject("a KV result");
            Fields f = new Fields();
            for (String field = c.nextField(); field != null; field = c.nextField()) {
                switch (field) {
                    case "index" -> f.index = c.optionalLong("index");
                    case "found" -> f.found = c.booleanValue("found");
                    case "applied" -> f.applied = c.booleanValue("applied");
                    case "key" -> f.key = c.optionalText("key");
                    case "value" -> f.value = c.rawValue();
                    case "version" -> f.version = c.optionalLong("version").orElse(0);
                    case "expiresAt" -> f.expiresAt = c.optionalMicros("expiresAt");
                    case "updatedAt" -> f.updatedAt = c.optionalMicros("updatedAt");
                    case "reason" -> f.reason = c.optionalText("reason");
                    case "truncated" -> f.truncated = !c.isNull() && c.booleanValue("truncated");
                    case "nextAfter" -> f.nextAfter = c.optionalText("nextAfter");
                    case "rows" -> f.rows = rows(c);
                    case "missing" -> f.missing = strings(c);
                    default -> c.skipValue();
                }
            }
            return f;
        }

        KvResult shape(KvOp op) {
            Optional<KvReason> why = Optional.ofNullable(reason).map(KvReason::fromWire);
            if (op instanceof KvOp.Get get) {
                return new KvResult.Got(found
                        ? Optional.of(new KvRow(key == null ? get.key() : key, rawOrNull(value), version, expiresAt, updatedAt))
                        : Optional.empty());
            }
            if (op instanceof KvOp.GetMany) {
                return new KvResult.GotMany(rows, missing, truncated);
            }
            if (op instanceof KvOp.GetPrefix) {
                return new KvResult.GotPrefix(rows, truncated, Optional.ofNullable(nextAfter));
            }
            if (op instanceof KvOp.Put put) {
                return written(put.key(), why);
            }
            if (op instanceof KvOp.PutIfAbsent put) {
                return written(put.key(), why);
            }
            return new KvResult.Deleted(applied, version, applied ? Optional.empty() : why);
        }

        private KvResult written(String askedKey, Optional<KvReason> why) {
            Optional<RawJson> v = value == null ? Optional.empty() : Optional.of(RawJson.owning(value));
            return new KvResult.Written(applied, key == null ? askedKey : key, v, version, applied ? Optional.empty() : why);
        }

        private static RawJson rawOrNull(byte[] value) {
            return value == null ? RawJson.NULL : RawJson.owning(value);
        }

        private static List<KvRow> rows(JsonCursor c) throws IOException {
            if (c.isNull()) {
                return List.of();
            }
            c.requireArray("rows");
            List<KvRow> rows = new ArrayList<>();
            while (c.nextElement()) {
                Fields f = read(c);
                if (f.key == null) {
                    throw new WireFormatException("a KV row has no key");
                }
                rows.add(new KvRow(f.key, rawOrNull(f.value), f.version, f.expiresAt, f.updatedAt));
            }
            return rows;
        }

        private static List<String> strings(JsonCursor c) throws IOException {
            if (c.isNull()) {
                return List.of();
            }
            c.requireArray("missing");
            List<String> out = new ArrayList<>();
            while (c.nextElement()) {
                out.add(c.text("a missing key"));
            }
            return out;
        }
    }
}
