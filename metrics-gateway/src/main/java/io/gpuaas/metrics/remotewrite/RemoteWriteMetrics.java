package io.gpuaas.metrics.remotewrite;

import io.gpuaas.metrics.remotewrite.RemoteWriteRejection.Reason;
import io.prometheus.metrics.core.datapoints.CounterDataPoint;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.EnumMap;
import java.util.Map;

/**
 * The remote-write receiver's counters, on the shared registry (so {@code /metrics} renders them with the kit's
 * families). Labels are bounded by the rejection reasons; every reason is present from the start at 0, so a rate over
 * a reason that never happened reads 0, not nothing.
 */
public final class RemoteWriteMetrics {

    private final CounterDataPoint written;
    private final CounterDataPoint samples;
    private final CounterDataPoint devices;
    private final CounterDataPoint partial;
    private final CounterDataPoint unavailable;
    private final Map<Reason, CounterDataPoint> rejected = new EnumMap<>(Reason.class);

    public RemoteWriteMetrics(PrometheusRegistry registry) {
        written = Counter.builder()
                .name("gpuaas_remote_write_requests_total")
                .help("Remote-write requests written to Kafka and answered 204")
                .register(registry)
                .labelValues();
        samples = Counter.builder()
                .name("gpuaas_remote_write_samples_total")
                .help("Samples received by remote-write, of every series, DCGM or not")
                .register(registry)
                .labelValues();
        devices = Counter.builder()
                .name("gpuaas_remote_write_device_readings_total")
                .help("Device readings published from remote-write requests")
                .register(registry)
                .labelValues();
        partial = Counter.builder()
                .name("gpuaas_remote_write_partial_devices_total")
                .help("Device readings left out: the request held memory or power but no utilization of the device")
                .register(registry)
                .labelValues();
        unavailable = Counter.builder()
                .name("gpuaas_remote_write_unavailable_total")
                .help("Remote-write requests answered 503 (Kafka did not acknowledge in time; Prometheus retries)")
                .register(registry)
                .labelValues();
        Counter rejections = Counter.builder()
                .name("gpuaas_remote_write_rejected_requests_total")
                .help("Remote-write requests answered 4xx, by reason (Prometheus does not retry them)")
                .labelNames("reason")
                .register(registry);
        for (Reason reason : Reason.values()) {
            rejected.put(reason, rejections.labelValues(reason.label()));
        }
    }

    void received(ScrapeAssembler.Mapped mapped) {
        samples.inc(mapped.samples());
        partial.inc(mapped.partial());
    }

    void written(ScrapeAssembler.Mapped mapped) {
        written.inc();
        devices.inc(mapped.devices());
    }

    /** Devices of a request published although the request was refused for some of its series. */
    void partlyWritten(ScrapeAssembler.Mapped mapped) {
        devices.inc(mapped.devices());
    }

    void rejected(Reason reason) {
        rejected.get(reason).inc();
    }

    void unavailable() {
        unavailable.inc();
    }
}
