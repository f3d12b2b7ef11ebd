package io.queenlake.connector.metrics;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** One scrape of a Prometheus text endpoint (format 0.0.4), read into samples: name, labels, value. */
record PrometheusScrape(String text, List<Sample> samples) {

    record Sample(String name, Map<String, String> labels, double value) {}

    private static final Pattern LINE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)})?\\s+(\\S+)(?:\\s+\\d+)?$");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\",?");

    static PrometheusScrape of(URI metrics) throws IOException, InterruptedException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        HttpResponse<String> answer = http.send(HttpRequest.newBuilder(metrics).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (answer.statusCode() != 200) {
            throw new IOException(metrics + " answered HTTP " + answer.statusCode());
        }
        return parse(answer.body());
    }

    static PrometheusScrape parse(String text) {
        List<Sample> samples = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            Matcher m = LINE.matcher(line.strip());
            if (!m.matches()) {
                throw new IllegalArgumentException("not a Prometheus sample line: " + line);
            }
            Map<String, String> labels = new LinkedHashMap<>();
            if (m.group(2) != null) {
                Matcher l = LABEL.matcher(m.group(2));
                while (l.find()) {
                    labels.put(l.group(1), l.group(2).replace("\\\"", "\"").replace("\\\\", "\\"));
                }
            }
            samples.add(new Sample(m.group(1), labels, Double.parseDouble(m.group(3))));
        }
        return new PrometheusScrape(text, List.copyOf(samples));
    }

    /** Samples whose name ends with {@code _<metric>} and whose {@code queue} label is {@code queue}. */
    List<Sample> of(String metric, String queue) {
        return samples.stream()
                .filter(s -> s.name().endsWith("_" + metric) && queue.equals(s.labels().get("queue")))
                .toList();
    }
}
