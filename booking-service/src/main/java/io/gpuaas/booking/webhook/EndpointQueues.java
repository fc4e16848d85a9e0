package io.gpuaas.booking.webhook;

import io.gpuaas.booking.webhook.WebhookMetrics.Outcome;
import io.gpuaas.booking.webhook.WebhookSender.Result;
import io.gpuaas.events.DeadLetterPublisher;
import io.gpuaas.kit.runtime.TaskPool;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.KafkaException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One queue per endpoint, at most {@code inFlight} attempts to it at once, each on its own virtual thread of the
 * kit's {@link TaskPool} (which also times the retries; it is stopped after the notices consumer): an
 * endpoint that hangs or fails holds only its own slots, so it delays only its own deliveries. A failed attempt
 * frees its slot and comes back after a growing backoff; after {@code maxAttempts}, or on a definite no (4xx), the
 * notice goes to the dead-letter topic. An endpoint whose queue is full dead-letters new deliveries at once rather
 * than let one receiver hold back the notices consumer for every tenant.
 */
final class EndpointQueues {

    private static final Logger LOG = LoggerFactory.getLogger(EndpointQueues.class);

    private record Attempt(Delivery delivery, int number) {}

    private static final class Endpoint {
        private final ArrayDeque<Attempt> queue = new ArrayDeque<>();
        private int inFlight;
    }

    private final WebhookSender sender;
    private final DeadLetterPublisher deadLetters;
    private final RetryBackoff backoff;
    private final int maxAttempts;
    private final int inFlight;
    private final int queueCap;
    private final WebhookMetrics metrics;
    private final Map<String, Endpoint> endpoints = new HashMap<>();
    private final AtomicInteger queued = new AtomicInteger();
    private final TaskPool tasks;

    EndpointQueues(
            TaskPool tasks,
            WebhookSender sender,
            DeadLetterPublisher deadLetters,
            RetryBackoff backoff,
            int maxAttempts,
            int inFlight,
            int queueCap,
            WebhookMetrics metrics) {
        this.tasks = tasks;
        this.sender = sender;
        this.deadLetters = deadLetters;
        this.backoff = backoff;
        this.maxAttempts = maxAttempts;
        this.inFlight = inFlight;
        this.queueCap = queueCap;
        this.metrics = metrics;
    }

    /** Starts {@code delivery}; never blocks. */
    void submit(Delivery delivery) {
        enqueue(new Attempt(delivery, 1));
    }

    /** Deliveries waiting for a slot, over all endpoints. */
    int queued() {
        return queued.get();
    }

    private void enqueue(Attempt attempt) {
        List<Attempt> start;
        boolean full = false;
        synchronized (this) {
            Endpoint endpoint = endpoints.computeIfAbsent(attempt.delivery().endpointKey(), k -> new Endpoint());
            if (attempt.number() == 1 && endpoint.queue.size() >= queueCap) {
                full = true;
            } else {
                endpoint.queue.add(attempt);
                queued.incrementAndGet();
            }
            start = take(endpoint);
        }
        if (full) {
            launch(() -> deadLetter(attempt, "the endpoint's queue is full (" + queueCap + ")"));
        }
        start.forEach(a -> launch(() -> run(a)));
    }

    /** Attempts that may start now on {@code endpoint}; the caller holds the lock. */
    private List<Attempt> take(Endpoint endpoint) {
        List<Attempt> start = new ArrayList<>();
        while (endpoint.inFlight < inFlight && !endpoint.queue.isEmpty()) {
            endpoint.inFlight++;
            queued.decrementAndGet();
            start.add(endpoint.queue.poll());
        }
        return start;
    }

    private void launch(Runnable task) {
        try {
            tasks.execute(task);
        } catch (RejectedExecutionException e) {
            // Stopping: the delivery never ends here, so its offset is not committed and a restart delivers it.
            LOG.debug("webhook delivery not started: stopping");
        }
    }

    private void run(Attempt attempt) {
        try {
            Result result = sender.attempt(attempt.delivery());
            metrics.attempted(result.label());
            switch (result) {
                case Result.Delivered d -> end(attempt.delivery(), Outcome.DELIVERED);
                case Result.Gone g -> end(attempt.delivery(), Outcome.DROPPED);
                case Result.Permanent p -> deadLetter(attempt, p.detail());
                case Result.Retryable r -> retry(attempt, r.detail());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            // A secret that no longer opens (key rotated without re-registering), say: retrying will not help.
            deadLetter(attempt, e.getClass().getSimpleName());
        } finally {
            release(attempt.delivery().endpointKey());
        }
    }

    private void retry(Attempt attempt, String detail) {
        if (attempt.number() >= maxAttempts) {
            deadLetter(attempt, detail);
            return;
        }
        Duration wait = backoff.delay(attempt.number());
        try {
            tasks.schedule(() -> enqueue(new Attempt(attempt.delivery(), attempt.number() + 1)), wait);
        } catch (RejectedExecutionException e) {
            LOG.debug("webhook retry not scheduled: stopping");
        }
    }

    private void release(String endpointKey) {
        List<Attempt> start;
        synchronized (this) {
            Endpoint endpoint = endpoints.get(endpointKey);
            if (endpoint == null) {
                return;
            }
            endpoint.inFlight--;
            start = take(endpoint);
            if (endpoint.inFlight == 0 && endpoint.queue.isEmpty()) {
                endpoints.remove(endpointKey);
            }
        }
        start.forEach(a -> launch(() -> run(a)));
    }

    /** Writes the notice to the dead-letter topic, retrying while the broker refuses; ends the delivery. */
    private void deadLetter(Attempt attempt, String detail) {
        Delivery delivery = attempt.delivery();
        WebhookDeliveryFailed failure = new WebhookDeliveryFailed(delivery.endpointKey(), attempt.number(), detail);
        for (int tries = 1; !Thread.currentThread().isInterrupted(); tries++) {
            try {
                deadLetters.publish(delivery.original(), failure);
                end(delivery, Outcome.DEAD_LETTERED);
                return;
            } catch (KafkaException e) {
                LOG.warn("cannot dead-letter a webhook delivery yet (try {})", tries, e);
                try {
                    Thread.sleep(backoff.delay(tries));
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    private void end(Delivery delivery, Outcome outcome) {
        metrics.ended(outcome);
        delivery.onEnd().run();
    }
}
