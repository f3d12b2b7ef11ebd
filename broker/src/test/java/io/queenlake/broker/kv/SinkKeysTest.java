package io.queenlake.broker.kv;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The KV keys of LAKE-FORMAT "KV documents", with names escaped so none runs into another key. */
class SinkKeysTest {

    private final SinkKeys keys = new SinkKeys("lake-a");

    @Test
    void everyQueueDocumentHasItsKeyUnderTheSinkAndTheEscapedQueue() {
        assertThat(keys.committed("a b/ü:c")).isEqualTo("s3:lake-a:a%20b%2F%C3%BC%3Ac:committed");
        assertThat(keys.lease("a b/ü:c")).isEqualTo("s3:lake-a:a%20b%2F%C3%BC%3Ac:lease");
        assertThat(keys.intent("a b/ü:c")).isEqualTo("s3:lake-a:a%20b%2F%C3%BC%3Ac:intent");
    }

    @Test
    void thePresenceRowNamesTheEscapedInstance() {
        assertThat(keys.presence("queen-lake@host:1")).isEqualTo("s3:lake-a:node=queen-lake%40host%3A1");
    }

    @Test
    void aQueueNamedLikeAnotherKeyCannotReachIt() {
        assertThat(keys.committed("x:lease")).isNotEqualTo(keys.lease("x")).isEqualTo("s3:lake-a:x%3Alease:committed");
        assertThat(keys.committed("node=x")).doesNotStartWith("s3:lake-a:node=");
    }

    @Test
    void theNamespaceIsTheOneTheReferenceSinkShares() {
        assertThat(SinkKeys.NAMESPACE).isEqualTo("queen-s3");
    }
}
