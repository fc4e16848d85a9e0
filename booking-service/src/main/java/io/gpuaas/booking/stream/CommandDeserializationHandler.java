package io.gpuaas.booking.stream;

import io.gpuaas.events.EventDecodingException;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.streams.errors.DeserializationExceptionHandler;
import org.apache.kafka.streams.errors.ErrorHandlerContext;

/** A command that cannot be decoded goes to the dead-letter topic; the partition moves on. */
public final class CommandDeserializationHandler implements DeserializationExceptionHandler {

    private DeadLetterSink sink;

    @Override
    public void configure(Map<String, ?> configs) {
        sink = DeadLetterSink.from(configs);
    }

    @Override
    public DeserializationHandlerResponse handle(ErrorHandlerContext context, ConsumerRecord<byte[], byte[]> record,
                                                 Exception exception) {
        String reason = exception instanceof EventDecodingException decoding ? decoding.reason() : "UNREADABLE";
        sink.publish(context, reason, exception);
        return DeserializationHandlerResponse.CONTINUE;
    }
}
