package io.queenlake.broker.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class HttpQueenClientBuilderTest {

    @Test
    void trailingSlashesAreTrimmedFromTheBrokerUrl() {
        assertThat(HttpQueenClient.builder().baseUrl("http://localhost:6632//").build().broker())
                .isEqualTo("http://localhost:6632");
        assertThat(HttpQueenClient.builder().baseUrl(" https://queen.example.com/base/ ").build().broker())
                .isEqualTo("https://queen.example.com/base");
    }

    @Test
    void aMissingUrlNamesQueenUrl() {
        assertThatThrownBy(() -> HttpQueenClient.builder().build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the Queen broker URL is missing; set QUEEN_URL, e.g. http://localhost:6632");
    }

    @Test
    void onlyHttpAndHttpsWithAHostAreAccepted() {
        assertThatThrownBy(() -> HttpQueenClient.builder().baseUrl("ftp://queen:6632").build())
                .hasMessage("the Queen broker URL 'ftp://queen:6632' must start with http:// or https://; fix QUEEN_URL");
        assertThatThrownBy(() -> HttpQueenClient.builder().baseUrl("localhost:6632").build())
                .hasMessage("the Queen broker URL 'localhost:6632' must start with http:// or https://; fix QUEEN_URL");
        assertThatThrownBy(() -> HttpQueenClient.builder().baseUrl("http:///api").build())
                .hasMessage("the Queen broker URL 'http:///api' has no host; fix QUEEN_URL");
        assertThatThrownBy(() -> HttpQueenClient.builder().baseUrl("http://q:6632/?x=1").build())
                .hasMessage("the Queen broker URL 'http://q:6632/?x=1' must not carry a query, fragment or user; fix QUEEN_URL");
    }

    @Test
    void aTenantMustBeAUuid() {
        assertThatThrownBy(() -> HttpQueenClient.builder().baseUrl("http://q").tenant("acme").build())
                .hasMessage("the Queen tenant 'acme' is not a UUID (xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx); fix the tenant setting");
    }

    @Test
    void aTokenWithSpacesIsRefused() {
        assertThatThrownBy(() -> HttpQueenClient.builder().baseUrl("http://q").token("Bearer abc").build())
                .hasMessage("the Queen token contains spaces or control characters; set QUEEN_TOKEN to the bare token");
    }

    @Test
    void timeoutsMustBePositive() {
        assertThatThrownBy(() -> HttpQueenClient.builder().baseUrl("http://q").requestTimeout(Duration.ZERO).build())
                .hasMessage("the Queen client's request timeout must be above zero, was PT0S");
    }
}
