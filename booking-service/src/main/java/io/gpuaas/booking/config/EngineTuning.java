package io.gpuaas.booking.config;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Latency tuning of the decision engine's Kafka Streams clients, under {@code gpuaas.booking.engine}. A decision
 * is visible only when its transaction commits, so what matters is how soon a commit starts and how long it takes;
 * the measurements behind each default are in docs/decisions/0001-booking-engine-latency-settings.md.
 *
 * @param commitInterval  {@code commit.interval.ms}: the longest a processed decision waits for its commit
 * @param pollInterval    {@code poll.ms}: how long the stream thread may block in poll before it checks whether a
 *                        commit is due; kept equal to the commit interval so a quiet moment cannot delay a commit
 * @param producerLinger  the transactional producer's {@code linger.ms}: longer than the commit interval, so records
 *                        leave in one request when the commit flushes instead of one request per record
 * @param retryBackoff    the transactional producer's {@code retry.backoff.ms}: the first AddPartitionsToTxn of a
 *                        transaction meets CONCURRENT_TRANSACTIONS while the previous one's markers are written; the
 *                        client retries after min(20 ms, this)
 * @param fetchMaxWait    the stream thread's consumer {@code fetch.max.wait.ms} (a fetch returns as soon as a
 *                        command arrives; this only bounds an empty fetch)
 * @param streamThreads   {@code num.stream.threads}
 * @param sessionTimeout  the stream thread's consumer {@code session.timeout.ms}: how long the pools of an instance
 *                        that died without leaving the group (killed, cut off) wait before another replica takes them
 *                        over; heartbeats come from their own thread, so a long decision does not count against it
 */
@ConfigurationProperties("gpuaas.booking.engine")
public record EngineTuning(
        @Bindable(defaultValue = COMMIT_INTERVAL) Duration commitInterval,
        @Bindable(defaultValue = POLL_INTERVAL) Duration pollInterval,
        @Bindable(defaultValue = PRODUCER_LINGER) Duration producerLinger,
        @Bindable(defaultValue = RETRY_BACKOFF) Duration retryBackoff,
        @Bindable(defaultValue = FETCH_MAX_WAIT) Duration fetchMaxWait,
        @Bindable(defaultValue = STREAM_THREADS) int streamThreads,
        @Bindable(defaultValue = SESSION_TIMEOUT) Duration sessionTimeout) {

    static final String COMMIT_INTERVAL = "PT0.005S";
    static final String POLL_INTERVAL = "PT0.005S";
    static final String PRODUCER_LINGER = "PT0.1S";
    static final String RETRY_BACKOFF = "PT0.002S";
    static final String FETCH_MAX_WAIT = "PT0.05S";
    static final String STREAM_THREADS = "1";
    static final String SESSION_TIMEOUT = "PT10S";

    /** The defaults, for code that runs the topology without the application context (benchmarks). */
    public static EngineTuning defaults() {
        return new EngineTuning(
                Duration.parse(COMMIT_INTERVAL),
                Duration.parse(POLL_INTERVAL),
                Duration.parse(PRODUCER_LINGER),
                Duration.parse(RETRY_BACKOFF),
                Duration.parse(FETCH_MAX_WAIT),
                Integer.parseInt(STREAM_THREADS),
                Duration.parse(SESSION_TIMEOUT));
    }

    /**
     * Kafka Streams properties (producer./consumer. prefixes for the clients) for these settings; values are strings
     * because Kafka parses those for int and long settings alike.
     */
    public Map<String, String> streamsProperties() {
        Map<String, String> props = new LinkedHashMap<>();
        props.put("commit.interval.ms", Long.toString(commitInterval.toMillis()));
        props.put("poll.ms", Long.toString(pollInterval.toMillis()));
        props.put("producer.linger.ms", Long.toString(producerLinger.toMillis()));
        props.put("producer.retry.backoff.ms", Long.toString(retryBackoff.toMillis()));
        props.put("consumer.fetch.max.wait.ms", Long.toString(fetchMaxWait.toMillis()));
        props.put("num.stream.threads", Integer.toString(streamThreads));
        props.put("consumer.session.timeout.ms", Long.toString(sessionTimeout.toMillis()));
        return props;
    }
}
