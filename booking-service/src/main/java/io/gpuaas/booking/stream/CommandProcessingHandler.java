package io.gpuaas.booking.stream;

import io.gpuaas.events.DeadLetterDeserializationHandler;
import io.gpuaas.events.DeadLetterPublisher;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProcessingExceptionHandler;
import org.apache.kafka.streams.processor.api.Record;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An {@link InvalidCommandException} (thrown before any state changed) dead-letters the command as it was read and
 * moves on; any other failure stops the task, because state may be half-applied and only a restore from the
 * changelog is safe then. If even the dead letter cannot be written the task stops too: the command is decided
 * again after the restore rather than lost. The publisher comes from the Streams config under
 * {@link DeadLetterDeserializationHandler#PUBLISHER_CONFIG}, the same one the deserialization handler uses.
 */
public final class CommandProcessingHandler implements ProcessingExceptionHandler {

    private static final Logger LOG = LoggerFactory.getLogger(CommandProcessingHandler.class);

    private DeadLetterPublisher deadLetters;

    @Override
    public void configure(Map<String, ?> configs) {
        if (!(configs.get(DeadLetterDeserializationHandler.PUBLISHER_CONFIG)
                instanceof DeadLetterPublisher publisher)) {
            throw new ConfigException(
                    DeadLetterDeserializationHandler.PUBLISHER_CONFIG,
                    configs.get(DeadLetterDeserializationHandler.PUBLISHER_CONFIG),
                    "must hold a DeadLetterPublisher");
        }
        deadLetters = publisher;
    }

    @Override
    public ProcessingHandlerResponse handle(ErrorHandlerContext context, Record<?, ?> record, Exception exception) {
        if (!(exception instanceof InvalidCommandException)) {
            return ProcessingHandlerResponse.FAIL;
        }
        try {
            deadLetters.publish(sourceRecord(context), exception);
            return ProcessingHandlerResponse.CONTINUE;
        } catch (KafkaException e) {
            LOG.error(
                    "cannot dead-letter {}-{}@{} in {}; stopping the task",
                    context.topic(),
                    context.partition(),
                    context.offset(),
                    context.taskId(),
                    e);
            return ProcessingHandlerResponse.FAIL;
        }
    }

    /** The command as it arrived: the source bytes and headers Streams keeps for the handler, and where it was read. */
    static ConsumerRecord<byte[], byte[]> sourceRecord(ErrorHandlerContext context) {
        byte[] key = context.sourceRawKey();
        byte[] value = context.sourceRawValue();
        return new ConsumerRecord<>(
                context.topic(),
                context.partition(),
                context.offset(),
                context.timestamp(),
                TimestampType.CREATE_TIME,
                key == null ? -1 : key.length,
                value == null ? -1 : value.length,
                key,
                value,
                context.headers(),
                Optional.empty());
    }
}
