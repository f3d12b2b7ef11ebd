package io.queenlake.broker.client;

/** The broker routes this client calls, as {@code METHOD path}. */
enum Route {
    FETCH("POST", "/api/v1/fetch"),
    FETCH_OFFSETS("POST", "/api/v1/fetch/offsets"),
    PARTITIONS_CHANGED("POST", "/api/v1/partitions/changed"),
    KV("POST", "/api/v1/kv"),
    PUSH("POST", "/api/v1/push"),
    CONFIGURE("POST", "/api/v1/configure"),
    QUEUES("GET", "/api/v1/resources/queues"),
    HEALTH("GET", "/health");

    final String method;
    final String path;

    Route(String method, String path) {
        this.method = method;
        this.path = path;
    }

    @Override
    public String toString() {
        return method + " " + path;
    }
}
