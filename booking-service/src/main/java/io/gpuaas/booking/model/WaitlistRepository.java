package io.gpuaas.booking.model;

import io.gpuaas.events.booking.WaitlistEntry;
import java.util.function.Consumer;

/**
 * Durable storage of the entries still waiting on the waitlist: a Kafka Streams state store in production, a map in
 * tests. An entry that leaves the waitlist is deleted (its last state is on {@code gpuaas.waitlist}).
 */
public interface WaitlistRepository {

    void save(WaitlistEntry entry);

    void delete(String entryId);

    void forEach(Consumer<WaitlistEntry> action);
}
