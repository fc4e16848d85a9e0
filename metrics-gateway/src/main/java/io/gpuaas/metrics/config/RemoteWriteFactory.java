package io.gpuaas.metrics.config;

import io.gpuaas.events.CloudEventHeaders;
import io.gpuaas.events.Topics;
import io.gpuaas.events.gpu.GpuScrapeCodec;
import io.gpuaas.kit.kafka.KafkaClients;
import io.gpuaas.metrics.KafkaFactory;
import io.gpuaas.metrics.MetricsGatewayApplication;
import io.gpuaas.metrics.remotewrite.KafkaScrapePublisher;
import io.gpuaas.metrics.remotewrite.LabelSlots;
import io.gpuaas.metrics.remotewrite.RemoteWriteMetrics;
import io.gpuaas.metrics.remotewrite.RemoteWriteReceiver;
import io.micronaut.context.annotation.Bean;
import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Requires;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import jakarta.inject.Singleton;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/** The remote-write receiver's beans; with {@code remote-write.enabled: false} none is built. */
@Factory
@Requires(property = "gpuaas.metrics-gateway.remote-write.enabled", notEquals = "false")
public class RemoteWriteFactory {

    @Singleton
    RemoteWriteMetrics remoteWriteMetrics(PrometheusRegistry registry) {
        return new RemoteWriteMetrics(registry);
    }

    /** Its own producer (the scraper's settings, its own client id): closed with the context, after a flush. */
    @Singleton
    @Bean(preDestroy = "close")
    KafkaScrapePublisher remoteWritePublisher(KafkaClients kafka) {
        Map<String, Object> config = KafkaFactory.sampleProducerConfig(kafka);
        config.put(ProducerConfig.CLIENT_ID_CONFIG, "metrics-gateway-remote-write");
        return new KafkaScrapePublisher(
                new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer()),
                kafka.topic(Topics.GPU_SAMPLES),
                new GpuScrapeCodec(CloudEventHeaders.of(MetricsGatewayApplication.SOURCE)));
    }

    @Singleton
    RemoteWriteReceiver remoteWriteReceiver(
            RemoteWriteSettings settings, KafkaScrapePublisher publisher, RemoteWriteMetrics metrics) {
        return new RemoteWriteReceiver(
                new LabelSlots(settings.nodeLabels(), settings.targetPodLabels()),
                settings.maxBodyBytes(),
                settings.publishTimeout(),
                publisher,
                metrics);
    }
}
