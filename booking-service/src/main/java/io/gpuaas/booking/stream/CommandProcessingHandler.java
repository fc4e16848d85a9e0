package io.gpuaas.booking.stream;

import java.util.Map;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProcessingExceptionHandler;
import org.apache.kafka.streams.processor.api.Record;

/**
 * An {@link InvalidCommandException} (thrown before any state changed) dead-letters the command and moves on;
 * any other failure stops the task, because state may be half-applied and only a restore from the changelog
 * is safe then.
 */
public final class CommandProcessingHandler implements ProcessingExceptionHandler {

    private DeadLetterSink sink;

    @Override
    public void configure(Map<String, ?> configs) {
        sink = DeadLetterSink.from(configs);
    }

    @Override
    public ProcessingHandlerResponse handle(ErrorHandlerContext context, Record<?, ?> record, Exception exception) {
        if (exception instanceof InvalidCommandException) {
            sink.publish(context, "INVALID_COMMAND", exception);
            return ProcessingHandlerResponse.CONTINUE;
        }
        return ProcessingHandlerResponse.FAIL;
    }
}
