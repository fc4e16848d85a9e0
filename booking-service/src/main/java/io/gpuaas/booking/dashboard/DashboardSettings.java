package io.gpuaas.booking.dashboard;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.core.bind.annotation.Bindable;
import java.time.Duration;

/**
 * Where the dashboard forwards a Resume and its usage reads, under {@code gpuaas.booking}.
 *
 * @param reclaimerUrl  base URL of idle-reclaimer's API (e.g. {@code http://127.0.0.1:8082}); none: Resume answers 503
 * @param resumeTimeout how long a forwarded Resume may take before the caller gets a 502
 * @param ledgerUrl     base URL of metrics-gateway's API (e.g. {@code http://127.0.0.1:8083}); none: usage answers 503
 * @param ledgerTimeout how long a forwarded usage read may take before the caller gets a 504
 */
@ConfigurationProperties("gpuaas.booking")
public record DashboardSettings(
        @Nullable String reclaimerUrl,
        @Bindable(defaultValue = "PT10S") Duration resumeTimeout,
        @Nullable String ledgerUrl,
        @Bindable(defaultValue = "PT10S") Duration ledgerTimeout) {

    /** The reclaimer's base URL without a trailing slash, or null when Resume is off. */
    public String reclaimerBase() {
        return base(reclaimerUrl);
    }

    /** metrics-gateway's base URL without a trailing slash, or null when usage is off. */
    public String ledgerBase() {
        return base(ledgerUrl);
    }

    private static String base(String url) {
        if (url == null || url.isBlank()) {
            return null;
        }
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }
}
