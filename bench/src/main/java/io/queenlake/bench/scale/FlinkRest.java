package io.queenlake.bench.scale;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The few reads of the Flink REST API the bench makes (what the web UI shows): the job and its
 * vertices, its checkpoint history, task metrics aggregated over subtasks, the task manager's JVM
 * metrics and the job's restarts.
 */
final class FlinkRest {

    /** One vertex of the job graph: its id, name and parallelism. */
    record Vertex(String id, String name, int parallelism) {}

    /** One checkpoint of the history: id, status, when it was triggered (epoch ms) and its end-to-end duration. */
    record Checkpoint(long id, String status, long triggerMillis, long durationMs) {}

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private final String base;

    FlinkRest(URI web) {
        String s = web.toString();
        this.base = s.endsWith("/") ? s.substring(0, s.length() - 1) : s;
    }

    JsonNode get(String path) throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30))
                .GET().build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IOException("GET " + path + " answered " + r.statusCode() + ": " + r.body());
        }
        return JSON.readTree(r.body());
    }

    /** The id of the cluster's only job, once it is listed. */
    String onlyJob(Duration within) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        while (true) {
            JsonNode jobs = get("/jobs").path("jobs");
            if (jobs.size() == 1) {
                return jobs.get(0).path("id").asText();
            }
            if (jobs.size() > 1 || System.nanoTime() > deadline) {
                throw new IllegalStateException("expected one job on " + base + ", found " + jobs);
            }
            Thread.sleep(200);
        }
    }

    JsonNode job(String job) throws IOException, InterruptedException {
        return get("/jobs/" + job);
    }

    List<Vertex> vertices(JsonNode job) {
        List<Vertex> vertices = new ArrayList<>();
        for (JsonNode v : job.path("vertices")) {
            vertices.add(new Vertex(v.path("id").asText(), v.path("name").asText(), v.path("parallelism").asInt()));
        }
        return vertices;
    }

    /** The checkpoints the history still lists (the last ten by default), completed or not. */
    List<Checkpoint> checkpoints(String job) throws IOException, InterruptedException {
        List<Checkpoint> list = new ArrayList<>();
        for (JsonNode c : get("/jobs/" + job + "/checkpoints").path("history")) {
            list.add(new Checkpoint(c.path("id").asLong(), c.path("status").asText(), c.path("trigger_timestamp").asLong(),
                    c.path("end_to_end_duration").asLong()));
        }
        return list;
    }

    /** A task metric of {@code vertex} over its subtasks: {max, avg}, or NaNs before it is reported. */
    double[] subtaskMetric(String job, String vertex, String metric) throws IOException, InterruptedException {
        JsonNode m = get("/jobs/" + job + "/vertices/" + vertex + "/subtasks/metrics?get=" + metric + "&agg=max,avg");
        if (m.size() == 0) {
            return new double[] {Double.NaN, Double.NaN};
        }
        return new double[] {m.get(0).path("max").asDouble(Double.NaN), m.get(0).path("avg").asDouble(Double.NaN)};
    }

    /** A metric of the (only) task manager, e.g. {@code Status.JVM.Memory.Heap.Used}, or -1 before it is reported. */
    long taskManagerMetric(String metric) throws IOException, InterruptedException {
        JsonNode tms = get("/taskmanagers").path("taskmanagers");
        if (tms.size() == 0) {
            return -1;
        }
        JsonNode m = get("/taskmanagers/" + tms.get(0).path("id").asText() + "/metrics?get=" + metric);
        return m.size() == 0 ? -1 : m.get(0).path("value").asLong(-1);
    }

    /** A job metric such as {@code numRestarts}, or -1 before it is reported. */
    long jobMetric(String job, String metric) throws IOException, InterruptedException {
        JsonNode m = get("/jobs/" + job + "/metrics?get=" + metric);
        return m.size() == 0 ? -1 : m.get(0).path("value").asLong(-1);
    }

    /** The root exception of the job's latest failure, or null when it has not failed. */
    String rootException(String job) throws IOException, InterruptedException {
        JsonNode history = get("/jobs/" + job + "/exceptions").path("exceptionHistory").path("entries");
        if (history.size() == 0) {
            return null;
        }
        String text = history.get(0).path("stacktrace").asText("");
        int eol = text.indexOf('\n');
        return (eol < 0 ? text : text.substring(0, eol)) + " (" + history.size() + " failures listed)";
    }
}
