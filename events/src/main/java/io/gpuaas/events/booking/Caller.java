package io.gpuaas.events.booking;

/**
 * Who asked for a booking change, as authenticated at the HTTP edge.
 *
 * @param subject the token subject (a user or service account)
 * @param tenant  the tenant the caller acts for
 * @param admin   whether the caller holds the admin role
 */
public record Caller(String subject, String tenant, boolean admin) {}
