package io.gpuaas.reclaim.stream;

import io.gpuaas.events.gpu.GpuSampleEvent;
import io.gpuaas.reclaim.model.AttributedSample;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * First step: a device sample becomes a sample of its workload (see {@link SampleAttributor}), keyed by the
 * workload for the repartition. The input's CloudEvents headers are dropped: they describe the public GpuSample,
 * not the internal record, and copying them doubled the bytes every sample costs on the repartition topic.
 */
final class AttributionProcessor implements Processor<String, GpuSampleEvent, String, AttributedSample> {

    private final SampleAttributor attributor;
    private ProcessorContext<String, AttributedSample> context;

    AttributionProcessor(SampleAttributor attributor) {
        this.attributor = attributor;
    }

    @Override
    public void init(ProcessorContext<String, AttributedSample> context) {
        this.context = context;
    }

    @Override
    public void process(Record<String, GpuSampleEvent> record) {
        KeyValue<String, AttributedSample> attributed = attributor.attribute(record.value());
        if (attributed != null) {
            context.forward(new Record<>(attributed.key, attributed.value, record.timestamp(), new RecordHeaders()));
        }
    }
}
