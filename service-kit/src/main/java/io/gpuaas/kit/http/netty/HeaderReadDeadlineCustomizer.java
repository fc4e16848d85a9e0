package io.gpuaas.kit.http.netty;

import io.micronaut.context.event.BeanCreatedEvent;
import io.micronaut.context.event.BeanCreatedEventListener;
import io.micronaut.http.netty.channel.ChannelPipelineCustomizer;
import io.micronaut.http.server.netty.NettyServerCustomizer;
import io.netty.channel.Channel;
import io.netty.channel.ChannelPipeline;
import jakarta.inject.Singleton;

/**
 * Puts a {@link HeaderReadDeadline} on every HTTP/1.1 connection of the service's server, around Micronaut's
 * {@code http-server-codec}. The services speak plain HTTP/1.1 (TLS ends at the ingress or route), so that is every
 * connection they get.
 */
@Singleton
public class HeaderReadDeadlineCustomizer implements BeanCreatedEventListener<NettyServerCustomizer.Registry> {

    private final HttpEdgeSettings settings;

    public HeaderReadDeadlineCustomizer(HttpEdgeSettings settings) {
        this.settings = settings;
    }

    @Override
    public NettyServerCustomizer.Registry onCreated(BeanCreatedEvent<NettyServerCustomizer.Registry> event) {
        event.getBean().register(new PerConnection(null));
        return event.getBean();
    }

    private final class PerConnection implements NettyServerCustomizer {

        private final Channel channel;

        PerConnection(Channel channel) {
            this.channel = channel;
        }

        @Override
        public NettyServerCustomizer specializeForChannel(Channel channel, ChannelRole role) {
            return role == ChannelRole.CONNECTION ? new PerConnection(channel) : this;
        }

        @Override
        public void onStreamPipelineBuilt() {
            if (channel == null || settings.headerReadTimeout().isZero()) {
                return;
            }
            ChannelPipeline pipeline = channel.pipeline();
            String codec = ChannelPipelineCustomizer.HANDLER_HTTP_SERVER_CODEC;
            if (pipeline.get(codec) == null || pipeline.get("gpuaas-header-deadline-bytes") != null) {
                return;
            }
            HeaderReadDeadline deadline = new HeaderReadDeadline(settings.headerReadTimeout());
            pipeline.addBefore(codec, "gpuaas-header-deadline-bytes", deadline.bytes());
            pipeline.addAfter(codec, "gpuaas-header-deadline-heads", deadline.heads());
        }
    }
}
