package io.queenlake.dist;

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
import java.util.OptionalInt;

/** What the cluster's REST API says (as {@code curl} or the web UI would read it): task managers, a job's state, restarts, failures. */
final class ClusterRest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final URI base;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    ClusterRest(URI base) {
        this.base = base;
    }

    /** Task managers registered with the resource manager; empty while the REST endpoint is not up. */
    OptionalInt registeredTaskManagers() {
        try {
            return OptionalInt.of(get("/overview").path("taskmanagers").asInt());
        } catch (IOException e) {
            return OptionalInt.empty();
        }
    }

    /** The JobManager's own class path, as it reports it ({@code /jobmanager/environment}). */
    List<String> jobManagerClassPath() throws IOException {
        List<String> entries = new ArrayList<>();
        get("/jobmanager/environment").path("classpath").forEach(e -> entries.add(e.asText()));
        return entries;
    }

    /** {@code RUNNING}, {@code RESTARTING}, {@code FAILED}, ... */
    String status(String jobId) throws IOException {
        return get("/jobs/" + jobId).path("state").asText();
    }

    /** The job running and every subtask of it too (a vertex counts as running once one of its subtasks is). */
    boolean fullyRunning(String jobId) throws IOException {
        JsonNode job = get("/jobs/" + jobId);
        if (!job.path("state").asText().equals("RUNNING")) {
            return false;
        }
        for (JsonNode vertex : job.path("vertices")) {
            if (vertex.path("tasks").path("RUNNING").asInt() != vertex.path("parallelism").asInt()) {
                return false;
            }
        }
        return true;
    }

    /** The job's {@code numRestarts} metric (every failover, region or global), 0 until the metric is fetched. */
    long restarts(String jobId) throws IOException {
        for (JsonNode metric : get("/jobs/" + jobId + "/metrics?get=numRestarts")) {
            return metric.path("value").asLong();
        }
        return 0;
    }

    /** The job's latest failures (at most 5), one line each: what the web UI's "Exceptions" tab lists. */
    List<String> failures(String jobId) throws IOException {
        List<String> lines = new ArrayList<>();
        for (JsonNode entry : get("/jobs/" + jobId + "/exceptions?maxExceptions=5").path("exceptionHistory").path("entries")) {
            String trace = entry.path("stacktrace").asText("");
            lines.add(entry.path("taskName").asText("(global)") + " on " + entry.path("endpoint").asText("?") + ": "
                    + trace.lines().findFirst().orElse(entry.path("exceptionName").asText()));
        }
        return lines;
    }

    /** The first lines of the latest failure's stack trace, or none. */
    String rootCause(String jobId) throws IOException {
        String trace = get("/jobs/" + jobId + "/exceptions").path("root-exception").asText("");
        return trace.lines().limit(30).reduce("", (a, b) -> a + b + "\n");
    }

    void cancel(String jobId) throws IOException, InterruptedException {
        HttpResponse<String> answer = http.send(HttpRequest.newBuilder(base.resolve("/jobs/" + jobId + "?mode=cancel"))
                .method("PATCH", HttpRequest.BodyPublishers.noBody()).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (answer.statusCode() / 100 != 2) {
            throw new IOException("cancel " + jobId + ": " + answer.statusCode() + " " + answer.body());
        }
    }

    private JsonNode get(String path) throws IOException {
        try {
            HttpResponse<String> answer = http.send(HttpRequest.newBuilder(base.resolve(path))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
            if (answer.statusCode() != 200) {
                throw new IOException("GET " + path + ": " + answer.statusCode() + " " + answer.body());
            }
            return JSON.readTree(answer.body());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }
}
