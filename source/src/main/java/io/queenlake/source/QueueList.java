package io.queenlake.source;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.function.Function;
import org.apache.flink.annotation.Internal;

/**
 * The text of {@link QueenSourceOptions#QUEUES}, as the reference reads it: {@code *} alone for
 * every queue, a comma list {@code a,b}, or a JSON array {@code ["a","b"]} for names that hold a
 * comma. (Flink's own list type splits on {@code ;}, which would read {@code a,b} as one queue.)
 */
@Internal
public final class QueueList {

    private static final JsonFactory JSON = new JsonFactory();

    private QueueList() {}

    /** The queue names ({@code [*]} for every queue), else what {@code refuse} makes of the problem. */
    public static List<String> parse(String text, Function<String, ? extends RuntimeException> refuse) {
        List<String> names;
        try {
            names = text.startsWith("[") ? jsonArray(text) : commaList(text);
        } catch (IllegalArgumentException e) {
            throw refuse.apply(e.getMessage());
        }
        String problem = problem(names);
        if (problem != null) {
            throw refuse.apply(problem);
        }
        return List.copyOf(names);
    }

    /** What is wrong with {@code text} as a queue list, or null. */
    static String problemOf(String text) {
        try {
            parse(text, IllegalArgumentException::new);
            return null;
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }

    /** What is wrong with a list of names given in code, or null. */
    static String problem(List<String> names) {
        if (names.isEmpty() || names.stream().anyMatch(n -> n == null || n.isBlank())) {
            return "names an empty queue";
        }
        if (names.contains("*") && names.size() > 1) {
            return "mixes * with names";
        }
        if (new LinkedHashSet<>(names).size() != names.size()) {
            return "names a queue twice";
        }
        return null;
    }

    private static List<String> commaList(String text) {
        List<String> names = new ArrayList<>();
        for (String part : text.split(",", -1)) {
            names.add(part.strip());
        }
        return names;
    }

    private static List<String> jsonArray(String text) {
        List<String> names = new ArrayList<>();
        try (JsonParser p = JSON.createParser(text)) {
            p.nextToken();
            for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
                if (t != JsonToken.VALUE_STRING) {
                    throw new IllegalArgumentException("is a JSON array with a non-string element");
                }
                names.add(p.getText());
            }
            if (p.nextToken() != null) {
                throw new IllegalArgumentException("has text after its JSON array");
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("is not a valid JSON array");
        }
        return names;
    }
}
