package io.queenlake.job.config;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * Reads {@code QUEEN_S3_QUEUES} as the reference does: {@code *} alone for every queue, a comma
 * list {@code a,b}, or a JSON array {@code ["a","b"]} for names that hold a comma. The launcher's
 * commands that take a queue list read it here too.
 */
public final class QueueList {

    private static final JsonFactory JSON = new JsonFactory();

    private QueueList() {}

    /** The queue names ({@code [*]} for every queue); a {@link SettingsException} names what is wrong. */
    public static List<String> parse(String raw, Origin origin) {
        List<String> names = raw.startsWith("[") ? jsonArray(raw, origin) : commaList(raw);
        if (names.isEmpty() || names.stream().anyMatch(String::isBlank)) {
            throw Setting.QUEUES.refusal(raw, origin, "names an empty queue");
        }
        if (names.contains("*") && names.size() > 1) {
            throw Setting.QUEUES.refusal(raw, origin, "mixes * with names");
        }
        if (new LinkedHashSet<>(names).size() != names.size()) {
            throw Setting.QUEUES.refusal(raw, origin, "names a queue twice");
        }
        return List.copyOf(names);
    }

    private static List<String> commaList(String raw) {
        List<String> names = new ArrayList<>();
        for (String part : raw.split(",", -1)) {
            names.add(part.strip());
        }
        return names;
    }

    private static List<String> jsonArray(String raw, Origin origin) {
        List<String> names = new ArrayList<>();
        try (JsonParser p = JSON.createParser(raw)) {
            p.nextToken();
            for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
                if (t != JsonToken.VALUE_STRING) {
                    throw Setting.QUEUES.refusal(raw, origin, "is a JSON array with a non-string element");
                }
                names.add(p.getText());
            }
            if (p.nextToken() != null) {
                throw Setting.QUEUES.refusal(raw, origin, "has text after its JSON array");
            }
        } catch (IOException e) {
            throw Setting.QUEUES.refusal(raw, origin, "is not a valid JSON array");
        }
        return names;
    }
}
