package io.queenlake.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.junit.jupiter.api.Test;

/**
 * What a catalog link shows in messages and logs (its address, never a password or a token), and
 * how it finds a queue's table: missing whether the catalog lacks the table or its namespace.
 */
class CatalogLinkTest {

    private static final CatalogLink LINK = CatalogLink.jdbc("jdbc:sqlite::memory:", "file:///tmp/wh", "queen", null, null,
            Map.of());

    @Test
    void aQueuesTableIsFoundAndMissingWhetherTheTableOrItsNamespaceIsAbsent() {
        InMemoryCatalog catalog = new InMemoryCatalog();
        catalog.initialize("queen_lake", Map.of());
        catalog.createNamespace(LINK.icebergNamespace());
        catalog.createTable(LINK.tableOf("orders"), LakeTableLayout.SCHEMA);
        // A REST catalog answers a namespace that does not exist yet (a fresh lake) with its own error.
        InMemoryCatalog withoutNamespace = new InMemoryCatalog() {
            @Override
            public Table loadTable(TableIdentifier id) {
                throw new NoSuchNamespaceException("Namespace does not exist: %s", id.namespace());
            }
        };

        assertThat(LINK.tableOf("orders/EU")).hasToString("queen.orders_eu_dd0da792");
        assertThat(LINK.existingTable(catalog, "orders")).isPresent();
        assertThat(LINK.existingTable(catalog, "refunds")).isEmpty();
        assertThat(LINK.existingTable(withoutNamespace, "orders")).isEmpty();
    }

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
