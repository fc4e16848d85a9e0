package io.gpuaas.metrics.remotewrite;

import static io.gpuaas.metrics.remotewrite.WriteRequests.series;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuaas.events.gpu.GpuScrape;
import io.gpuaas.metrics.remotewrite.RemoteWriteRejection.Reason;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class RemoteWriteReceiverTest {

    private static final String SNAPPY = "snappy";
    private static final String PROTOBUF = "application/x-protobuf";

    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final List<GpuScrape> published = new ArrayList<>();
    private CompletableFuture<Void> kafka = CompletableFuture.completedFuture(null);
    private final RemoteWriteReceiver receiver = new RemoteWriteReceiver(
            new LabelSlots(List.of("node"), false),
            4096,
            Duration.ofMillis(200),
            this::publish,
            new RemoteWriteMetrics(registry));

    private CompletableFuture<Void> publish(List<GpuScrape> scrapes) {
        published.addAll(scrapes);
        return kafka;
    }

    private static byte[] body(WriteRequests.TimeSeries... series) {
        return WriteRequests.body(List.of(series));
    }

    private static WriteRequests.TimeSeries util(String uuid) {
        return series("DCGM_FI_DEV_GPU_UTIL", Map.of("UUID", uuid, "node", "n1"), 50, 1_000);
    }

    @Test
    void shouldWriteAndCountWhenTheRequestIsRemoteWrite10() {
        WriteOutcome outcome = receiver.receive(SNAPPY, PROTOBUF, body(util("GPU-a"), util("GPU-b")));

        assertThat(outcome).isInstanceOf(WriteOutcome.Written.class);
        assertThat(published).singleElement().satisfies(s -> assertThat(s.devices())
                .hasSize(2));
        assertThat(counter("gpuaas_remote_write_requests", Labels.EMPTY)).isEqualTo(1);
        assertThat(counter("gpuaas_remote_write_device_readings", Labels.EMPTY)).isEqualTo(2);
        assertThat(counter("gpuaas_remote_write_samples", Labels.EMPTY)).isEqualTo(2);
    }

    @Test
    void shouldAnswer415WhenTheEncodingOrTheMessageIsNotRemoteWrite10() {
        byte[] body = body(util("GPU-a"));

        assertThat(reason(receiver.receive(null, PROTOBUF, body))).isEqualTo(Reason.UNSUPPORTED_MEDIA_TYPE);
        assertThat(reason(receiver.receive("gzip", PROTOBUF, body))).isEqualTo(Reason.UNSUPPORTED_MEDIA_TYPE);
        assertThat(reason(
                        receiver.receive(SNAPPY, "application/x-protobuf;proto=io.prometheus.write.v2.Request", body)))
                .isEqualTo(Reason.UNSUPPORTED_MEDIA_TYPE);
        assertThat(reason(receiver.receive(SNAPPY, "application/json", body))).isEqualTo(Reason.UNSUPPORTED_MEDIA_TYPE);
        assertThat(published).isEmpty();
        assertThat(receiver.receive("Snappy", "application/x-protobuf; proto=prometheus.WriteRequest", body))
                .isInstanceOf(WriteOutcome.Written.class);
        assertThat(receiver.receive(SNAPPY, null, body)).isInstanceOf(WriteOutcome.Written.class);
        assertThat(counter("gpuaas_remote_write_rejected_requests", Labels.of("reason", "unsupported_media_type")))
                .isEqualTo(4);
    }

    @Test
    void shouldRefuseWithoutPublishingWhenTheBodyIsNotSnappyProtobufOrTooLarge() {
        byte[] notProtobuf = WriteRequests.snappy(new byte[] {0x0F, 0x00});
        byte[] large = body(java.util.stream.IntStream.range(0, 200)
                .mapToObj(i -> util("GPU-" + i))
                .toArray(WriteRequests.TimeSeries[]::new));

        assertThat(reason(receiver.receive(SNAPPY, PROTOBUF, new byte[] {1, 2, 3})))
                .isEqualTo(Reason.NOT_SNAPPY);
        assertThat(reason(receiver.receive(SNAPPY, PROTOBUF, notProtobuf))).isEqualTo(Reason.MALFORMED_PROTOBUF);
        assertThat(reason(receiver.receive(SNAPPY, PROTOBUF, large))).isEqualTo(Reason.BODY_TOO_LARGE);
        assertThat(published).isEmpty();
        assertThat(counter("gpuaas_remote_write_rejected_requests", Labels.of("reason", "not_snappy")))
                .isEqualTo(1);
        assertThat(counter("gpuaas_remote_write_rejected_requests", Labels.of("reason", "invalid_series")))
                .isZero();
    }

    @Test
    void shouldPublishTheValidSeriesAndAnswer400WhenSomeSeriesCannotNameADevice() {
        WriteOutcome outcome = receiver.receive(
                SNAPPY, PROTOBUF, body(util("GPU-a"), series("DCGM_FI_DEV_GPU_UTIL", Map.of("node", "n1"), 50, 1_000)));

        assertThat(outcome).isInstanceOfSatisfying(WriteOutcome.Refused.class, r -> {
            assertThat(r.reason()).isEqualTo(Reason.INVALID_SERIES);
            assertThat(r.detail()).startsWith("1 series dropped, the others written; first: series 2:");
        });
        assertThat(published).singleElement().satisfies(s -> assertThat(s.devices())
                .hasSize(1));
        assertThat(counter("gpuaas_remote_write_rejected_requests", Labels.of("reason", "invalid_series")))
                .isEqualTo(1);
        assertThat(counter("gpuaas_remote_write_requests", Labels.EMPTY)).isZero();
    }

    @Test
    void shouldAnswerUnavailableSoPrometheusRetriesWhenKafkaFailsOrDoesNotAcknowledgeInTime() {
        kafka = CompletableFuture.failedFuture(new org.apache.kafka.common.errors.TimeoutException("expired"));
        assertThat(receiver.receive(SNAPPY, PROTOBUF, body(util("GPU-a")))).isEqualTo(new WriteOutcome.Unavailable());

        kafka = new CompletableFuture<>(); // never acknowledged: the 200 ms publish timeout answers
        assertThat(receiver.receive(SNAPPY, PROTOBUF, body(util("GPU-a")))).isEqualTo(new WriteOutcome.Unavailable());

        assertThat(counter("gpuaas_remote_write_unavailable", Labels.EMPTY)).isEqualTo(2);
        assertThat(counter("gpuaas_remote_write_requests", Labels.EMPTY)).isZero();
    }

    @Test
    void shouldAnswer204WithoutPublishingWhenTheRequestHoldsNoDcgmSeries() {
        kafka = new CompletableFuture<>(); // would time out if anything were published
        WriteOutcome outcome =
                receiver.receive(SNAPPY, PROTOBUF, body(series("up", Map.of("job", "node", "instance", "a:1"), 1, 1)));

        assertThat(outcome).isInstanceOf(WriteOutcome.Written.class);
        assertThat(published).isEmpty();
    }

    private static Reason reason(WriteOutcome outcome) {
        assertThat(outcome).isInstanceOf(WriteOutcome.Refused.class);
        return ((WriteOutcome.Refused) outcome).reason();
    }

    private double counter(String name, Labels labels) {
        return registry.scrape().stream()
                .filter(s -> s.getMetadata().getName().equals(name))
                .map(CounterSnapshot.class::cast)
                .flatMap(s -> s.getDataPoints().stream())
                .filter(p -> p.getLabels().equals(labels))
                .mapToDouble(CounterSnapshot.CounterDataPointSnapshot::getValue)
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + name + labels));
    }
}
