package io.queenlake.broker.client;

import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes a broker outage visible in the log once per component, not once per retry: the first
 * failed call logs one WARN naming the component, the broker's URL and the error; later failures
 * log at DEBUG only until a call is answered, which logs one INFO line with how long the broker was
 * unreachable and how many calls failed. The source's calls are not retried inside the client, so a
 * failure reaches its caller at once when the broker refuses the connection, and within the
 * client's connect timeout (3 s) when nothing answers: the WARN comes within seconds. Thread-safe;
 * one per component (the source's discovery, each split reader).
 */
public final class BrokerOutage {

    private static final Logger LOG = LoggerFactory.getLogger(BrokerOutage.class);

    private final String component;
    private final String brokerUrl;
    private final Outages outages;

    /** {@code component} names who is calling, e.g. "the source's discovery" or "reader 0". */
    public BrokerOutage(String component, String brokerUrl) {
        this(component, brokerUrl, System::nanoTime);
    }

    BrokerOutage(String component, String brokerUrl, LongSupplier nanoClock) {
        this.component = component;
        this.brokerUrl = brokerUrl;
        this.outages = new Outages(nanoClock);
    }

    /** A call failed and will be retried: the first failure of an outage logs its WARN. */
    public void failed(Throwable error) {
        long failures = outages.failed(component);
        if (failures > 1) {
            LOG.debug("{}: the broker at {} still fails ({} failed calls): {}", component, brokerUrl, failures,
                    error.getMessage());
            return;
        }
        LOG.warn("broker unavailable for {}: {}: {}; retrying, one line when it answers", component, brokerUrl,
                error.getMessage());
    }

    /** A call was answered: ends the outage, if one was open, with one line. */
    public void answered() {
        outages.answered(component).ifPresent(ended -> LOG.info(
                "broker available again for {}: {}, after {} s and {} failed calls", component, brokerUrl,
                ended.seconds(), ended.failures()));
    }

    /** Whether an outage is open. */
    public boolean open() {
        return outages.isOpen(component);
    }
}
