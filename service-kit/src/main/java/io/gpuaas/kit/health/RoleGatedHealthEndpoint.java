package io.gpuaas.kit.health;

import io.gpuaas.kit.config.SecuritySettings;
import io.micronaut.context.annotation.Replaces;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.core.async.annotation.SingleResult;
import io.micronaut.management.endpoint.annotation.Endpoint;
import io.micronaut.management.endpoint.annotation.Read;
import io.micronaut.management.endpoint.annotation.Selector;
import io.micronaut.management.endpoint.health.HealthEndpoint;
import io.micronaut.management.endpoint.health.HealthLevelOfDetail;
import io.micronaut.management.health.aggregator.HealthAggregator;
import io.micronaut.management.health.indicator.HealthCheckType;
import io.micronaut.management.health.indicator.HealthIndicator;
import io.micronaut.management.health.indicator.HealthResult;
import io.micronaut.management.health.indicator.annotation.Liveness;
import io.micronaut.security.authentication.Authentication;
import java.security.Principal;
import java.util.Collection;
import org.reactivestreams.Publisher;

/**
 * {@code /health}, {@code /health/liveness} and {@code /health/readiness} stay open to anyone (probes), but the
 * details (disk space, Kafka cluster id, stream states, error messages) only reach a caller whose token carries
 * the {@code admin} or {@code metrics} role: everyone else, token or not, sees {@code status} alone. Works with
 * {@code endpoints.health.details-visible: AUTHENTICATED}; {@code NEVER} hides details from everyone.
 */
@Endpoint(value = HealthEndpoint.NAME, defaultSensitive = HealthEndpoint.DEFAULT_SENSITIVE)
@Replaces(HealthEndpoint.class)
public class RoleGatedHealthEndpoint extends HealthEndpoint {

    private final SecuritySettings security;

    public RoleGatedHealthEndpoint(
            HealthAggregator<HealthResult> healthAggregator,
            HealthIndicator[] healthIndicators,
            @Liveness HealthIndicator[] livenessHealthIndicators,
            SecuritySettings security) {
        super(healthAggregator, healthIndicators, livenessHealthIndicators);
        this.security = security;
    }

    @Override
    @Read
    @SingleResult
    public Publisher<HealthResult> getHealth(@Nullable Principal principal) {
        return super.getHealth(principal);
    }

    @Override
    @Read
    @SingleResult
    public Publisher<HealthResult> getHealth(@Nullable Principal principal, @Selector HealthCheckType selector) {
        return super.getHealth(principal, selector);
    }

    @Override
    protected HealthLevelOfDetail levelOfDetail(@Nullable Principal principal) {
        return super.levelOfDetail(mayReadDetails(principal) ? principal : null);
    }

    boolean mayReadDetails(@Nullable Principal principal) {
        if (!(principal instanceof Authentication authentication)) {
            return false;
        }
        Collection<String> roles = authentication.getRoles();
        return roles.contains(security.adminRole()) || roles.contains(security.metricsRole());
    }
}
