package io.gpuaas.reclaim.stream;

import io.gpuaas.events.gpu.GpuScrapeEvent;
import io.gpuaas.reclaim.model.WorkloadSamples;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * First step: a scrape becomes one record per workload holding that workload's samples of it, keyed by the workload for
 * the repartition (see {@link SampleAttributor}); all of them are forwarded within the input record's transaction. The input's CloudEvents
 * headers are dropped: they describe the public GpuScrape, not the internal record, and copying them doubled the bytes
 * every sample costs on the repartition topic.
 */
final class AttributionProcessor implements Processor<String, GpuScrapeEvent, String, WorkloadSamples> {

    private final SampleAttributor attributor;
    private ProcessorContext<String, WorkloadSamples> context;

    AttributionProcessor(SampleAttributor attributor) {
        this.attributor = attributor;
    }

    @Override
    public void init(ProcessorContext<String, WorkloadSamples> context) {
        this.context = context;
    }

    @Override
    public void process(Record<String, GpuScrapeEvent> record) {
        attributor.attribute(
                record.value(),
                (workload, samples) ->
                        context.forward(new Record<>(workload, samples, record.timestamp(), new RecordHeaders())));
    }
}
