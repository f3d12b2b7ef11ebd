package io.queenlake.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The table names {@link QueueTableName}'s Javadoc promises are the ones it gives (and Spark shows). */
class QueueTableNameTest {

    @Test
    void aQueueNamedAsATableKeepsItsName() {
        assertThat(QueueTableName.of("orders")).isEqualTo("orders");
    }

    @Test
    void anyOtherNameIsItsReadableFormAndTheSha256OfTheNameAsGiven() {
        // sha256("Orders/EU") = 5d5a65ff...: the UTF-8 bytes of the name as given, not of its lower-cased form.
        assertThat(QueueTableName.of("Orders/EU")).isEqualTo("orders_eu_5d5a65ff");
        assertThat(QueueTableName.of("orders/eu")).isNotEqualTo(QueueTableName.of("Orders/EU"));
    }
}
