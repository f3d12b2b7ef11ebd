package io.queenlake.format.manifest;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.queenlake.format.model.Micros;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a small JSON document (manifest, KV document, checkpoint) into plain maps and lists with
 * jackson-core's streaming parser, and offers typed, tolerant field access: unknown fields are
 * ignored, a missing or mistyped required field is one clear sentence naming the document.
 */
final class JsonIn {

    private static final JsonFactory FACTORY = JsonFactory.builder().build();

    private final String document;
    private final Map<String, Object> fields;

    private JsonIn(String document, Map<String, Object> fields) {
        this.document = document;
        this.fields = fields;
    }

    static JsonIn parse(String document, byte[] json) {
        try (JsonParser p = FACTORY.createParser(json)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new IllegalArgumentException("the " + document + " is not a JSON object");
            }
            return new JsonIn(document, readObject(p));
        } catch (IOException e) {
            throw new IllegalArgumentException("the " + document + " is not valid JSON: " + e.getMessage(), e);
        }
    }

    static JsonIn of(String document, Object value) {
        if (!(value instanceof Map<?, ?> map)) {
            throw new IllegalArgumentException("the " + document + " is not a JSON object");
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> m = (Map<String, Object>) map;
        return new JsonIn(document, m);
    }

    boolean has(String name) {
        return fields.get(name) != null;
    }

    String string(String name) {
        Object v = required(name);
        if (v instanceof String s) {
            return s;
        }
        throw mistyped(name, "a string");
    }

    String stringOr(String name, String fallback) {
        return has(name) ? string(name) : fallback;
    }

    long integer(String name) {
        Object v = required(name);
        if (v instanceof Long l) {
            return l;
        }
        throw mistyped(name, "an integer");
    }

    long integerOr(String name, long fallback) {
        return has(name) ? integer(name) : fallback;
    }

    /** A stamp written either as integer microseconds or as an ISO string ({@code Z} or {@code +00:00}). */
    long stamp(String name) {
        Object v = required(name);
        if (v instanceof Long l) {
            return l;
        }
        if (v instanceof String s) {
            try {
                return Micros.parse(s);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("the " + document + " field '" + name + "' " + e.getMessage(), e);
            }
        }
        throw mistyped(name, "an integer or an ISO stamp");
    }

    List<Object> array(String name) {
        Object v = required(name);
        if (v instanceof List<?> list) {
            @SuppressWarnings("unchecked")
            List<Object> l = (List<Object>) list;
            return l;
        }
        throw mistyped(name, "an array");
    }

    List<Object> arrayOrEmpty(String name) {
        return has(name) ? array(name) : List.of();
    }

    private Object required(String name) {
        Object v = fields.get(name);
        if (v == null) {
            throw new IllegalArgumentException("the " + document + " has no '" + name + "' field");
        }
        return v;
    }

    private IllegalArgumentException mistyped(String name, String expected) {
        return new IllegalArgumentException("the " + document + " field '" + name + "' is not " + expected
                + ": " + fields.get(name));
    }

    private static Map<String, Object> readObject(JsonParser p) throws IOException {
        Map<String, Object> m = new LinkedHashMap<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            p.nextToken();
            m.put(name, readValue(p));
        }
        return m;
    }

    private static Object readValue(JsonParser p) throws IOException {
        return switch (p.currentToken()) {
            case START_OBJECT -> readObject(p);
            case START_ARRAY -> {
                List<Object> l = new ArrayList<>();
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    l.add(readValue(p));
                }
                yield l;
            }
            case VALUE_STRING -> p.getText();
            case VALUE_NUMBER_INT -> p.getNumberType() == JsonParser.NumberType.BIG_INTEGER
                    ? p.getBigIntegerValue() : (Object) p.getLongValue();
            case VALUE_NUMBER_FLOAT -> p.getDecimalValue();
            case VALUE_TRUE -> Boolean.TRUE;
            case VALUE_FALSE -> Boolean.FALSE;
            case VALUE_NULL -> null;
            default -> throw new IOException("unexpected " + p.currentToken());
        };
    }
}
