package io.gpuaas.events.booking;

/**
 * Who asked for a booking change: a caller authenticated at the HTTP edge, or booking-service itself.
 *
 * <p>{@code system} is true only on commands booking-service's own lifecycle components write (the no-show release);
 * the HTTP edge never sets it, whatever a token says. It is believed because only booking-service may write
 * {@code gpuaas.booking-commands} ({@code KafkaAccess}): a command with it set can only come from that service's
 * own code. A system caller acts for the tenant of the booking it acts on.
 *
 * @param subject the token subject (a user or service account), or the component's name for a system caller
 * @param tenant  the tenant the caller acts for
 * @param admin   whether the caller holds the admin role
 * @param system  whether booking-service itself wrote the command (absent on the wire means false)
 */
public record Caller(String subject, String tenant, boolean admin, boolean system) {

    /** A caller authenticated at the HTTP edge (never a system caller). */
    public Caller(String subject, String tenant, boolean admin) {
        this(subject, tenant, admin, false);
    }

    /**
     * Booking-service's own component {@code component} acting for {@code tenant} (the booking's owner).
     *
     * @param component the component's name, recorded as the subject, e.g. {@code no-show-release}
     * @param tenant    the tenant of the booking the command acts on
     * @return the system caller
     */
    public static Caller system(String component, String tenant) {
        return new Caller(component, tenant, false, true);
    }
}
