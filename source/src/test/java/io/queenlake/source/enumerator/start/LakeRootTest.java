package io.queenlake.source.enumerator.start;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import org.junit.jupiter.api.Test;

class LakeRootTest {

    @Test
    void anS3RootSplitsIntoBucketAndPrefix() {
        LakeRoot root = LakeRoot.parse("s3://lake/queen/");

        assertThat(root.prefix().value()).isEqualTo("queen");
        assertThat(root.path("queen/_queen/x")).isEqualTo("s3://lake/queen/_queen/x");
        assertThat(LakeRoot.keyOf(URI.create("s3://lake/queen/_queen/x"))).isEqualTo("queen/_queen/x");
    }

    @Test
    void aFileRootKeepsItsWholePathAsThePrefix() {
        LakeRoot root = LakeRoot.parse("file:///data/lake/queen");

        assertThat(root.prefix().value()).isEqualTo("data/lake/queen");
        assertThat(root.path("data/lake/queen/_queen")).isEqualTo("file:///data/lake/queen/_queen");
    }

    @Test
    void aRootWithoutPrefixIsRefusedSayingWhatToAppend() {
        assertThatThrownBy(() -> LakeRoot.parse("s3://lake"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'s3://lake'")
                .hasMessageContaining("s3://lake/queen");
    }
}
