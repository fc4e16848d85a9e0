package io.gpuaas.booking.dashboard;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.core.bind.annotation.Bindable;
import java.time.Duration;

/**
 * Where the dashboard forwards a Resume, under {@code gpuaas.booking}.
 *
 * @param reclaimerUrl  base URL of idle-reclaimer's API (e.g. {@code http://127.0.0.1:8082}); none: Resume answers 503
 * @param resumeTimeout how long a forwarded Resume may take before the caller gets a 502
 */
@ConfigurationProperties("gpuaas.booking")
public record DashboardSettings(
        @Nullable String reclaimerUrl,
        @Bindable(defaultValue = "PT10S") Duration resumeTimeout) {

    /** The base URL without a trailing slash, or null when Resume is off. */
    public String reclaimerBase() {
        if (reclaimerUrl == null || reclaimerUrl.isBlank()) {
            return null;
        }
        return reclaimerUrl.endsWith("/") ? reclaimerUrl.substring(0, reclaimerUrl.length() - 1) : reclaimerUrl;
    }
}
