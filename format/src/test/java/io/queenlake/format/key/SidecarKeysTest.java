package io.queenlake.format.key;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class SidecarKeysTest {

    private final SidecarKeys orders = new SidecarKeys(Prefix.DEFAULT, "acme", "orders");

    @Test
    void manifestAndCheckpointKeysSitUnderQueen() {
        assertThat(orders.manifest(3)).isEqualTo("queen/_queen/tenant=acme/queue=orders/windows/0000000003.json");
        assertThat(orders.checkpoint(40))
                .isEqualTo("queen/_queen/tenant=acme/queue=orders/checkpoint/0000000040.json.zst");
        assertThat(new SidecarKeys(Prefix.DEFAULT, "a b", "x/y").manifest(1))
                .isEqualTo("queen/_queen/tenant=a%20b/queue=x%2Fy/windows/0000000001.json");
    }

    @Test
    void parsersReadTheirOwnKeysAndSkipEverythingElse() {
        assertThat(orders.parseManifest(orders.manifest(12))).hasValue(12);
        assertThat(orders.parseCheckpoint(orders.checkpoint(12))).hasValue(12);
        assertThat(orders.parseManifest(orders.checkpoint(12))).isEmpty();
        assertThat(orders.parseCheckpoint("queen/_queen/tenant=acme/queue=orders/checkpoint/12.json.zst")).isEmpty();
        assertThat(orders.parseCheckpoint("queen/_queen/tenant=acme/queue=orders/checkpoint/00000000x2.json.zst"))
                .isEmpty();
        assertThat(orders.parseCheckpoint("queen/_queen/tenant=acme/queue=orders2/checkpoint/0000000012.json.zst"))
                .isEmpty();
        assertThat(orders.parseCheckpoint(orders.checkpoint(12) + ".tmp")).isEmpty();
        assertThat(orders.parseManifest(null)).isEmpty();
    }

    @Test
    void theLatestCheckpointIsTheGreatestAtOrBelowTheCommittedWindow() {
        List<String> keys = List.of(orders.checkpoint(20), orders.checkpoint(60), orders.checkpoint(40),
                "queen/_queen/tenant=acme/queue=orders/checkpoint/junk", orders.manifest(50),
                new SidecarKeys(Prefix.DEFAULT, "acme", "other").checkpoint(45));
        assertThat(orders.latestCheckpoint(keys, 50)).hasValue(orders.checkpoint(40));
        assertThat(orders.latestCheckpoint(keys, 60)).hasValue(orders.checkpoint(60));
        assertThat(orders.latestCheckpoint(keys, 19)).isEmpty();
    }
}
