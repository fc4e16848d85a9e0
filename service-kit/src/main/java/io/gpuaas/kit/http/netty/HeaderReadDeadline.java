package io.gpuaas.kit.http.netty;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.concurrent.ScheduledFuture;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Closes a connection whose request head (request line and headers) is not complete within a deadline: a client
 * that trickles a header line every few seconds never looks idle to Netty's idle timeout, so without this it holds
 * a connection, and its buffers, for as long as it likes (slowloris). The clock starts when the connection opens
 * and, on a kept-alive connection, at the first byte of each next request; between requests the server's
 * {@code idle-timeout} rules. Two handlers share one clock: {@link #bytes()} sits before the HTTP codec and sees
 * raw bytes arrive, {@link #heads()} sits after it and sees a head decoded and a request end. One instance per
 * connection, all on its event loop.
 */
public final class HeaderReadDeadline {

    private final long deadlineNanos;
    private ScheduledFuture<?> timer;
    private boolean betweenRequests;

    public HeaderReadDeadline(Duration deadline) {
        this.deadlineNanos = deadline.toNanos();
    }

    /** Before the codec: starts the clock at connect, and at the first byte of a request after the last ended. */
    public ChannelInboundHandlerAdapter bytes() {
        return new ChannelInboundHandlerAdapter() {
            @Override
            public void handlerAdded(ChannelHandlerContext ctx) {
                if (ctx.channel().isActive()) {
                    start(ctx);
                }
            }

            @Override
            public void channelActive(ChannelHandlerContext ctx) {
                start(ctx);
                ctx.fireChannelActive();
            }

            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                if (betweenRequests) {
                    betweenRequests = false;
                    start(ctx);
                }
                ctx.fireChannelRead(msg);
            }

            @Override
            public void channelInactive(ChannelHandlerContext ctx) {
                stop();
                ctx.fireChannelInactive();
            }
        };
    }

    /** After the codec: a decoded head stops the clock; the end of its request lets the next byte start it. */
    public ChannelInboundHandlerAdapter heads() {
        return new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                if (msg instanceof HttpRequest) {
                    stop();
                }
                if (msg instanceof LastHttpContent) {
                    betweenRequests = true;
                }
                ctx.fireChannelRead(msg);
            }
        };
    }

    private void start(ChannelHandlerContext ctx) {
        if (timer == null && deadlineNanos > 0) {
            timer = ctx.executor().schedule(() -> ctx.channel().close(), deadlineNanos, TimeUnit.NANOSECONDS);
        }
    }

    private void stop() {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
    }
}
