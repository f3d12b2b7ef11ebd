package io.queenlake.devstack.broker;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The static bearer token, the public paths, and tenants that never see each other's queues. */
class AuthAndTenancyTest {

    private static final String TOKEN = "sk_test";
    private static final String OTHER_TENANT = "0199a6f2-5c1e-7b3a-9d4e-2f6a8c0b1d3e";
    private static DevBroker broker;
    private static WireClient anonymous;
    private static WireClient wire;

    @BeforeAll
    static void start() throws IOException {
        broker = DevBroker.start(DevBrokerOptions.builder().token(TOKEN).build());
        anonymous = new WireClient(broker.url());
        wire = anonymous.with("Authorization", "Bearer " + TOKEN);
    }

    @AfterAll
    static void stop() {
        broker.close();
    }

    @Test
    void everyApiRouteRefusesAMissingOrWrongToken() {
        WireClient wrong = anonymous.with("Authorization", "Bearer nope");
        for (String path : new String[] {"/api/v1/fetch", "/api/v1/push", "/api/v1/kv", "/api/v1/partitions/changed"}) {
            assertThat(anonymous.post(path, "{}").status()).as(path).isEqualTo(401);
            assertThat(wrong.post(path, "{}").status()).as(path).isEqualTo(401);
        }
        assertThat(anonymous.get("/status").status()).isEqualTo(401);
        assertThat(anonymous.get("/api/v1/resources/queues").json().get("error").asText()).isEqualTo("Authentication required");
    }

    @Test
    void healthIsPublicAndTheRightTokenOpensTheRest() {
        assertThat(anonymous.get("/health").status()).isEqualTo(200);
        assertThat(anonymous.get("/health").json().get("status").asText()).isEqualTo("healthy");
        assertThat(wire.get("/status").status()).isEqualTo(200);
        assertThat(wire.post("/api/v1/partitions/changed", "{\"entries\":[]}").status()).isEqualTo(200);
    }

    @Test
    void anotherTenantsQueueAnswersAsMissing() {
        WireClient other = wire.with("x-queen-tenant", OTHER_TENANT);
        other.push("private", "p", null, "1");

        assertThat(wire.fetch("private", "p", 0).get("error").asText()).isEqualTo("UNKNOWN_TOPIC_OR_PARTITION");
        assertThat(wire.changed("[{\"queue\":\"private\"}]").get("entries").get(0).get("error").asText())
                .isEqualTo("UNKNOWN_TOPIC_OR_PARTITION");
        assertThat(wire.get("/api/v1/resources/queues").json().get("queues").findValuesAsText("name")).doesNotContain("private");
        assertThat(other.get("/api/v1/resources/queues").json().get("queues").findValuesAsText("name")).containsExactly("private");
        assertThat(other.fetch("private", "p", 0).get("records")).hasSize(1);
    }

    @Test
    void anAbsentTenantHeaderIsTheDefaultTenant() {
        wire.push("defaulted", "p", null, "1");
        WireClient explicit = wire.with("x-queen-tenant", Tenant.DEFAULT_ID);
        assertThat(explicit.fetch("defaulted", "p", 0).get("records")).hasSize(1);
    }

    @Test
    void aMalformedTenantHeaderIsRefused() {
        WireClient.Answer a = wire.with("x-queen-tenant", "tenant-1").post("/api/v1/fetch", "{\"entries\":[]}");
        assertThat(a.status()).isEqualTo(400);
        assertThat(a.json().get("error").asText()).isEqualTo("invalid x-queen-tenant header (must be a UUID)");
    }

    @Test
    void unknownRoutesAndMethodsAreNamed() {
        assertThat(wire.get("/api/v1/nothing").status()).isEqualTo(404);
        assertThat(wire.get("/api/v1/fetch").status()).isEqualTo(405);
    }
}
