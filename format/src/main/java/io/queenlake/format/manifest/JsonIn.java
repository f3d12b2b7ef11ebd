package io.queenlake.format.manifest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.queenlake.format.model.Micros;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a small JSON document (manifest, KV document, checkpoint) as Jackson's tree and offers
 * typed, tolerant field access: unknown fields are ignored, a missing or mistyped required field is
 * one clear sentence naming the document. (Writing stays {@link JsonOut}'s: the bytes are pinned.)
 */
final class JsonIn {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final String document;
    private final JsonNode fields;

    private JsonIn(String document, JsonNode fields) {
        this.document = document;
        this.fields = fields;
    }

    static JsonIn parse(String document, byte[] json) {
        JsonNode tree;
        try {
            tree = MAPPER.readTree(json);
        } catch (IOException e) {
            throw new IllegalArgumentException("the " + document + " is not valid JSON: " + e.getMessage(), e);
        }
        return of(document, tree);
    }

    /** An element of an array {@link #array} gave, read as a document of its own. */
    static JsonIn of(String document, Object value) {
        if (!(value instanceof JsonNode node) || !node.isObject()) {
            throw new IllegalArgumentException("the " + document + " is not a JSON object");
        }
        return new JsonIn(document, node);
    }

    boolean has(String name) {
        JsonNode v = fields.get(name);
        return v != null && !v.isNull();
    }

    String string(String name) {
        JsonNode v = required(name);
        if (v.isTextual()) {
            return v.textValue();
        }
        throw mistyped(name, "a string");
    }

    String stringOr(String name, String fallback) {
        return has(name) ? string(name) : fallback;
    }

    long integer(String name) {
        JsonNode v = required(name);
        if (v.isIntegralNumber() && v.canConvertToLong()) {
            return v.longValue();
        }
        throw mistyped(name, "an integer");
    }

    long integerOr(String name, long fallback) {
        return has(name) ? integer(name) : fallback;
    }

    /** A stamp written either as integer microseconds or as an ISO string ({@code Z} or {@code +00:00}). */
    long stamp(String name) {
        JsonNode v = required(name);
        if (v.isIntegralNumber() && v.canConvertToLong()) {
            return v.longValue();
        }
        if (v.isTextual()) {
            try {
                return Micros.parse(v.textValue());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("the " + document + " field '" + name + "' " + e.getMessage(), e);
            }
        }
        throw mistyped(name, "an integer or an ISO stamp");
    }

    /** The array's elements as Jackson nodes, an object one for {@link #of}. */
    List<Object> array(String name) {
        JsonNode v = required(name);
        if (!v.isArray()) {
            throw mistyped(name, "an array");
        }
        List<Object> elements = new ArrayList<>(v.size());
        v.forEach(elements::add);
        return elements;
    }

    List<Object> arrayOrEmpty(String name) {
        return has(name) ? array(name) : List.of();
    }

    private JsonNode required(String name) {
        JsonNode v = fields.get(name);
        if (v == null || v.isNull()) {
            throw new IllegalArgumentException("the " + document + " has no '" + name + "' field");
        }
        return v;
    }

    private IllegalArgumentException mistyped(String name, String expected) {
        JsonNode v = fields.get(name);
        return new IllegalArgumentException("the " + document + " field '" + name + "' is not " + expected
                + ": " + (v.isTextual() ? v.textValue() : v.toString()));
    }
}
