package io.gpuaas.booking;

/**
 * When each {@code ServiceComponent} of booking-service starts (lowest first) and stops (highest first, by the kit's
 * {@code ServiceLifecycle}; {@link BookingService} builds them, each component carries its order). The topics in start
 * before what reads their views and stop after it: the decision engine stops while the booking feed still runs, so
 * the decisions its close commits still answer the HTTP calls waiting for them; the webhook deliveries' task pool
 * stops after the notices consumer, so the consumer's stop still sees deliveries end and commits them.
 */
public final class StartOrder {

    /** {@code booking-feed}, {@code dashboard-feed}, {@code webhook-registry}: the topic replicas. */
    public static final int FEEDS = 0;
    /** {@code decision-engine}: the Kafka Streams application of the decisions and the lifecycle. */
    public static final int DECISIONS = 10;
    /** {@code webhook-deliveries}: the delivery attempts' virtual threads and retry timer. */
    public static final int DELIVERY_TASKS = 10;
    /** {@code webhook-deliverer}: the notices consumer, once the webhook registry is whole. */
    public static final int DELIVERIES = 20;

    private StartOrder() {}
}
