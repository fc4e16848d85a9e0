package io.gpuaas.kit.runtime;

import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * How a {@link WorkConsumer} commits: plain offset commits ({@link #offsets()}), or the service's own, such as a
 * transaction that publishes the results with the offsets that move past them. One {@link Session} per consumer.
 *
 * @param <R> what a finished record leaves to commit with it
 */
@FunctionalInterface
public interface Committer<R> {

    /** Starts committing for {@code consumer}, a new one after each failure. */
    Session<R> open(Consumer<byte[], byte[]> consumer);

    /** Commits for one consumer's life. */
    interface Session<R> extends AutoCloseable {

        /**
         * Commits {@code offsets} (positions that moved; may be empty) with {@code results} (of the records they move
         * past, in offset order per partition; may be empty). Called now and then, also with both empty, so a
         * committer with output of its own can flush it. Throwing ends the consumer's session: everything not
         * committed is done again by the next one.
         */
        void commit(Map<TopicPartition, OffsetAndMetadata> offsets, List<OffsetTracker.Finished<R>> results);

        @Override
        default void close() {}
    }

    /** Commits the offsets synchronously; results are ignored. */
    static <R> Committer<R> offsets() {
        return consumer -> (offsets, results) -> {
            if (!offsets.isEmpty()) {
                consumer.commitSync(offsets);
            }
        };
    }
}
