package io.gpuaas.reclaim.stream;

import io.gpuaas.events.DeadLetterDeserializationHandler;
import io.gpuaas.events.DeadLetterPublisher;
import io.gpuaas.reclaim.metrics.ReclaimerMetrics;
import io.gpuaas.reclaim.model.OwnerLookup;
import io.gpuaas.reclaim.model.WorkloadLookup;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The reclaim Streams application from plain arguments: its properties for the service (which runs the topology under
 * the kit's {@code StreamsApplication}, built in {@code IdleReclaimer}), a bare client for the tests and the bench.
 */
public final class ReclaimPipeline {

    private static final Logger LOG = LoggerFactory.getLogger(ReclaimPipeline.class);
    /**
     * Stream threads when the config names none. Each sample costs two tasks' work (attribution, then the window
     * step after the repartition); two threads let both run at once on a two-core node.
     */
    public static final int DEFAULT_STREAM_THREADS = 2;

    private ReclaimPipeline() {}

    /**
     * The reclaim application's Streams settings: {@code streamsConfig} with exactly-once, two stream threads unless
     * it names a count, the dead-letter handler for unreadable samples and the state directory.
     */
    public static Properties properties(
            Map<String, Object> streamsConfig, Path stateDir, DeadLetterPublisher deadLetters) {
        Properties props = new Properties();
        props.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, DEFAULT_STREAM_THREADS);
        props.putAll(streamsConfig);
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        props.put(StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG, DeadLetterDeserializationHandler.class);
        props.put(DeadLetterDeserializationHandler.PUBLISHER_CONFIG, deadLetters);
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        return props;
    }

    /**
     * A bare client for the tests and the bench (the service runs the same topology and properties under the kit's
     * {@code StreamsApplication}): a failed stream thread is replaced at once.
     *
     * @param streamsConfig exactly-once Streams settings (application id, bootstrap servers...)
     * @param stateDir      local state directory; windows are restored from the changelog when it is empty
     * @param deadLetters   where unreadable samples go (original bytes and reason) while the partition moves on
     */
    public static KafkaStreams create(
            Map<String, Object> streamsConfig,
            String topicPrefix,
            Path stateDir,
            OwnerLookup owners,
            WorkloadLookup workloads,
            ReclaimDecider decider,
            ReclaimerMetrics metrics,
            DeadLetterPublisher deadLetters) {
        Properties props = properties(streamsConfig, stateDir, deadLetters);
        KafkaStreams streams =
                new KafkaStreams(ReclaimTopology.build(topicPrefix, owners, workloads, decider, metrics), props);
        streams.setUncaughtExceptionHandler(e -> {
            LOG.error("reclaim stream thread failed; replacing it", e);
            return StreamThreadExceptionResponse.REPLACE_THREAD;
        });
        return streams;
    }
}
