package io.queenlake.devstack.broker;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * One operation of a {@code POST /api/v1/kv} batch, read and checked against the broker's limits.
 * A value is kept as the raw JSON text it was sent as.
 */
record KvOperation(int index, String ns, Kind kind, String key, List<String> keys, String prefix, int limit,
        String after, boolean keysOnly, byte[] value, long ttlSeconds, boolean forever, Long expect, boolean required) {

    enum Kind {
        GET("get"), GET_MANY("getMany"), GET_PREFIX("getPrefix"), PUT("put"), PUT_IF_ABSENT("putIfAbsent"), DELETE("delete");

        final String wire;

        Kind(String wire) {
            this.wire = wire;
        }

        boolean writes() {
            return this == PUT || this == PUT_IF_ABSENT || this == DELETE;
        }

        static Kind of(String wire) {
            for (Kind k : values()) {
                if (k.wire.equals(wire)) {
                    return k;
                }
            }
            return null;
        }
    }

    static final Pattern NAMESPACE = Pattern.compile("^[a-z0-9][a-z0-9._-]{0,63}$");
    static final int MAX_OPS = 256;
    static final int MAX_KEYS = 1024;
    static final int MAX_VALUE_BYTES = 65_536;
    static final int DEFAULT_PREFIX_LIMIT = 100;
    static final int MAX_PREFIX_LIMIT = 1000;

    /** The precondition {@code expect} stands for: absent = upsert, 0 = must not exist, N = only over version N. */
    Long effectiveExpect() {
        return kind == Kind.PUT_IF_ABSENT ? Long.valueOf(0) : expect;
    }

    static WireError refused(String reason, String detail) {
        return new WireError(400, "kv_bad_request", "kv_bad_request", reason, detail);
    }

    /** Reads {@code {"operations":[...]}} or a bare array. */
    static List<KvOperation> parseBatch(byte[] body) {
        if (body.length == 0) {
            throw refused("kv_bad_body", "the request has no body; send {\"operations\":[...]}");
        }
        List<KvOperation> ops = new ArrayList<>();
        try (JsonParser p = WireJson.parser(body)) {
            JsonToken t = p.nextToken();
            if (t == JsonToken.START_ARRAY) {
                readOperations(p, body, ops);
            } else if (t == JsonToken.START_OBJECT) {
                boolean seen = false;
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String field = p.currentName();
                    JsonToken v = p.nextToken();
                    if ("operations".equals(field) && v == JsonToken.START_ARRAY) {
                        readOperations(p, body, ops);
                        seen = true;
                    } else {
                        p.skipChildren();
                    }
                }
                if (!seen) {
                    throw refused("kv_bad_body", "the body has no operations array");
                }
            } else {
                throw refused("kv_bad_body", "the body must be {\"operations\":[...]} or an array of operations");
            }
        } catch (JsonParseException e) {
            throw refused("kv_bad_body", "the body is not JSON (" + e.getOriginalMessage() + ")");
        } catch (IOException e) {
            throw refused("kv_bad_body", "the body could not be read (" + e.getMessage() + ")");
        }
        int keys = 0;
        for (KvOperation op : ops) {
            keys += op.kind() == Kind.GET_MANY ? op.keys().size() : op.kind() == Kind.GET_PREFIX ? op.limit() : 1;
        }
        if (keys > MAX_KEYS) {
            throw refused("kv_too_many_keys", "the batch touches " + keys + " keys; split it into calls of at most "
                    + MAX_KEYS + " (getPrefix counts its limit)");
        }
        return ops;
    }

    private static void readOperations(JsonParser p, byte[] body, List<KvOperation> ops) throws IOException {
        while (p.nextToken() != JsonToken.END_ARRAY) {
            if (ops.size() == MAX_OPS) {
                throw refused("kv_too_many_ops", "a batch holds at most " + MAX_OPS + " operations; split it");
            }
            ops.add(read(p, body, ops.size()));
        }
    }

    private static KvOperation read(JsonParser p, byte[] body, int index) throws IOException {
        if (p.currentToken() != JsonToken.START_OBJECT) {
            throw refused("kv_bad_body", "operation " + index + " must be an object");
        }
        String ns = null;
        String op = null;
        String key = null;
        List<String> keys = null;
        String prefix = null;
        Integer limit = null;
        String after = null;
        boolean keysOnly = false;
        byte[] value = null;
        Long ttl = null;
        boolean forever = false;
        boolean expectGiven = false;
        Long expect = null;
        boolean required = false;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken t = p.nextToken();
            switch (field) {
                case "ns", "namespace" -> ns = t == JsonToken.VALUE_STRING ? p.getText() : null;
                case "op" -> op = t == JsonToken.VALUE_STRING ? p.getText() : "";
                case "key" -> key = t == JsonToken.VALUE_STRING ? p.getText() : null;
                case "prefix" -> prefix = t == JsonToken.VALUE_STRING ? p.getText() : null;
                case "after" -> after = t == JsonToken.VALUE_STRING ? p.getText() : null;
                case "keysOnly" -> keysOnly = t == JsonToken.VALUE_TRUE;
                case "forever" -> forever = t == JsonToken.VALUE_TRUE;
                case "required" -> required = t == JsonToken.VALUE_TRUE;
                case "value" -> value = WireJson.rawValue(p, body);
                case "limit" -> limit = t == JsonToken.VALUE_NUMBER_INT ? (int) Math.min(Math.max(p.getLongValue(), 1), MAX_PREFIX_LIMIT) : null;
                case "ttlSeconds" -> {
                    if (t != JsonToken.VALUE_NULL) {
                        if (t != JsonToken.VALUE_NUMBER_INT || p.getLongValue() <= 0) {
                            throw refused("kv_bad_ttl", "operation " + index + ": ttlSeconds must be a whole number above 0");
                        }
                        ttl = p.getLongValue();
                    }
                }
                case "expect" -> {
                    expectGiven = true;
                    if (t != JsonToken.VALUE_NUMBER_INT || p.getLongValue() < 0) {
                        throw refused("kv_bad_expect", "operation " + index
                                + ": expect must be 0 (must not exist) or a version; leave it out to upsert");
                    }
                    expect = p.getLongValue();
                }
                case "keys" -> {
                    if (t != JsonToken.START_ARRAY) {
                        throw refused("kv_bad_body", "operation " + index + ": keys must be an array of strings");
                    }
                    keys = new ArrayList<>();
                    while (p.nextToken() != JsonToken.END_ARRAY) {
                        if (p.currentToken() != JsonToken.VALUE_STRING) {
                            throw refused("kv_bad_body", "operation " + index + ": keys must be an array of strings");
                        }
                        keys.add(p.getText());
                    }
                }
                default -> p.skipChildren();
            }
        }
        if (ns == null || !NAMESPACE.matcher(ns).matches()) {
            throw refused("kv_bad_namespace", "operation " + index + ": ns must match " + NAMESPACE.pattern());
        }
        Kind kind = Kind.of(op);
        if (kind == null) {
            throw refused("kv_bad_op", "operation " + index + ": op '" + op
                    + "' is not one of get, getMany, getPrefix, put, putIfAbsent, delete");
        }
        switch (kind) {
            case GET, PUT, PUT_IF_ABSENT, DELETE -> {
                if (key == null || key.isEmpty()) {
                    throw refused("kv_bad_key", "operation " + index + ": " + kind.wire + " needs a non-empty key");
                }
            }
            case GET_MANY -> {
                if (keys == null) {
                    throw refused("kv_bad_body", "operation " + index + ": getMany needs a keys array");
                }
            }
            case GET_PREFIX -> {
                if (prefix == null || prefix.isEmpty()) {
                    throw refused("kv_prefix_required", "operation " + index + ": getPrefix needs a non-empty prefix");
                }
            }
        }
        if (kind == Kind.PUT || kind == Kind.PUT_IF_ABSENT) {
            if (value == null) {
                throw refused("kv_bad_body", "operation " + index + ": " + kind.wire + " needs a value");
            }
            if (value.length > MAX_VALUE_BYTES) {
                throw new WireError(413, "payload_too_large", "payload_too_large", "kv_value_too_large",
                        "operation " + index + ": the value has " + value.length + " bytes; the limit is " + MAX_VALUE_BYTES);
            }
            if (ttl == null && !forever) {
                throw refused("kv_expiry_not_specified", "operation " + index
                        + ": give exactly one of ttlSeconds (> 0) or \"forever\":true");
            }
            if (ttl != null && forever) {
                throw refused("kv_bad_ttl", "operation " + index + ": give ttlSeconds or \"forever\":true, not both");
            }
        }
        if (kind == Kind.PUT_IF_ABSENT && expectGiven) {
            throw refused("kv_bad_expect", "operation " + index + ": putIfAbsent takes no expect (it is expect 0)");
        }
        if (expectGiven && !kind.writes()) {
            throw refused("kv_bad_expect", "operation " + index + ": " + kind.wire + " takes no expect");
        }
        int effectiveLimit = limit != null ? limit : DEFAULT_PREFIX_LIMIT;
        return new KvOperation(index, ns, kind, key, keys, prefix, effectiveLimit, after, keysOnly, value,
                ttl == null ? 0 : ttl, forever, expect, required);
    }
}
