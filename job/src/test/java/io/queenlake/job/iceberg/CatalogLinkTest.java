package io.queenlake.job.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a catalog link shows in messages and logs: its address, never a password or a token. */
class CatalogLinkTest {

    @Test
    void aPasswordInTheUriIsMaskedInMessagesAndSecretsNeverShow() {
        CatalogLink query = CatalogLink.jdbc("jdbc:postgresql://db:5432/lake?user=ql&password=hunter2&ssl=true",
                "s3://lake/iceberg", "queen", null, "also-secret", Map.of());
        CatalogLink userInfo = CatalogLink.rest("https://ql:hunter2@catalog.example.com/api", null, "queen", "tok-123",
                null, Map.of());

        assertThat(query.describe())
                .isEqualTo("jdbc catalog jdbc:postgresql://db:5432/lake?user=ql&password=***&ssl=true");
        assertThat(userInfo.describe()).isEqualTo("rest catalog https://ql:***@catalog.example.com/api");
        assertThat(query.toString()).doesNotContain("also-secret").doesNotContain("hunter2");
        assertThat(userInfo.toString()).doesNotContain("tok-123").doesNotContain("hunter2");
    }
}
