package io.queenlake.devstack.broker;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;

/** Raw HTTP calls to a dev broker, as a client on the wire would make them. */
final class WireClient {

    record Answer(int status, String text) {
        JsonNode json() {
            try {
                return MAPPER.readTree(text);
            } catch (IOException e) {
                throw new AssertionError("answer is not JSON: " + text, e);
            }
        }
    }

    static final ObjectMapper MAPPER = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private final URI base;
    private final List<String> headers = new ArrayList<>();

    WireClient(URI base) {
        this.base = base;
    }

    WireClient with(String name, String value) {
        WireClient c = new WireClient(base);
        c.headers.addAll(headers);
        c.headers.add(name);
        c.headers.add(value);
        return c;
    }

    Answer post(String path, String body) {
        return send(request(path).POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    Answer post(String path, byte[] body) {
        return send(request(path).POST(HttpRequest.BodyPublishers.ofByteArray(body)));
    }

    Answer get(String path) {
        return send(request(path).GET());
    }

    /** Pushes one item and answers its offset. */
    long push(String queue, String partition, String transactionId, String payload) {
        String tx = transactionId == null ? "" : ",\"transactionId\":\"" + transactionId + "\"";
        Answer a = post("/api/v1/push", "{\"items\":[{\"queue\":\"" + queue + "\",\"partition\":\"" + partition + "\""
                + tx + ",\"payload\":" + payload + "}]}");
        if (a.status() != 201) {
            throw new AssertionError("push answered " + a.status() + ": " + a.text());
        }
        return a.json().get(0).get("offset").asLong();
    }

    JsonNode fetch(String queue, String partition, long offset) {
        Answer a = post("/api/v1/fetch", "{\"entries\":[{\"queue\":\"" + queue + "\",\"partition\":\"" + partition
                + "\",\"offset\":" + offset + "}]}");
        if (a.status() != 200) {
            throw new AssertionError("fetch answered " + a.status() + ": " + a.text());
        }
        return a.json().get("entries").get(0);
    }

    JsonNode changed(String entriesJson) {
        Answer a = post("/api/v1/partitions/changed", "{\"entries\":" + entriesJson + "}");
        if (a.status() != 200) {
            throw new AssertionError("partitions/changed answered " + a.status() + ": " + a.text());
        }
        return a.json();
    }

    String safeTime() {
        return changed("[]").get("safeTime").asText();
    }

    JsonNode kv(String operationsJson) {
        Answer a = post("/api/v1/kv", "{\"operations\":" + operationsJson + "}");
        if (a.status() != 200) {
            throw new AssertionError("kv answered " + a.status() + ": " + a.text());
        }
        return a.json();
    }

    private HttpRequest.Builder request(String path) {
        HttpRequest.Builder b = HttpRequest.newBuilder(base.resolve(path)).header("Content-Type", "application/json");
        for (int i = 0; i < headers.size(); i += 2) {
            b.header(headers.get(i), headers.get(i + 1));
        }
        return b;
    }

    private static Answer send(HttpRequest.Builder b) {
        try {
            HttpResponse<String> r = HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
            return new Answer(r.statusCode(), r.body());
        } catch (IOException e) {
            throw new AssertionError("broker unreachable", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }
}
