package io.gpuaas.booking.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuaas.booking.model.BookingPolicy;
import java.time.Duration;
import java.time.Instant;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

class RequestValidatorTest {

    private static final Instant NOW = Instant.parse("2030-01-01T00:00:00Z");
    private final RequestValidator validator = new RequestValidator(BookingPolicy.DEFAULT);

    @Test
    void shouldReadRfc3339InstantsWithZOrAnOffsetToTheNanosecond() {
        assertThat(Rfc3339.parse("INVALID_FIELD", "start", "2030-01-01T10:00:00Z"))
                .isEqualTo("2030-01-01T10:00:00Z");
        assertThat(Rfc3339.parse("INVALID_FIELD", "start", "2030-01-01t11:00:00.000000001+01:00"))
                .isEqualTo("2030-01-01T10:00:00.000000001Z");
        assertThat(Rfc3339.parse("INVALID_FIELD", "start", null)).isNull();
    }

    @Test
    void shouldRefuseInstantsJavaWouldReadButRfc3339DoesNot() {
        for (String text : new String[] {
            "+1000000000-01-01T00:00:00Z",
            "-1000000000-01-01T00:00:00Z",
            "2030-01-01T10:00Z",
            "2030-01-01 10:00:00Z",
            "2030-01-01T10:00:00",
            "2030-02-30T10:00:00Z",
            "2030-01-01T10:00:00.0000000001Z",
            "2030-01-01T10:00:00+0100",
            "tomorrow"
        }) {
            assertProblem(() -> Rfc3339.parse("INVALID_FIELD", "end", text), "INVALID_FIELD", "end");
        }
    }

    @Test
    void shouldRefuseQueryInstantsOutsideTheHorizon() {
        Duration horizon = Duration.ofDays(104);

        assertThat(validator.horizon()).isEqualTo(horizon);
        assertThat(validator.queryInstant("from", NOW.minus(horizon).toString(), NOW))
                .isEqualTo(NOW.minus(horizon));
        assertProblem(
                () -> validator.queryInstant(
                        "to", NOW.plus(horizon).plusNanos(1).toString(), NOW),
                "OUTSIDE_HORIZON",
                "to");
        assertProblem(() -> validator.queryInstant("from", "2001-01-01T00:00:00Z", NOW), "OUTSIDE_HORIZON", "from");
    }

    @Test
    void shouldBoundDurationsAndNumbersWithoutOverflowing() {
        assertThat(RequestValidator.duration("INVALID_STEP", "step", "PT1H", Duration.ofMinutes(1), Duration.ofDays(1)))
                .isEqualTo(Duration.ofHours(1));
        assertThat(RequestValidator.duration("INVALID_STEP", "step", null, Duration.ofMinutes(1), Duration.ofDays(1)))
                .isNull();
        for (String text : new String[] {"PT9223372036854775807S", "PT1S", "P2D", "PT-1H", "1h", ""}) {
            assertProblem(
                    () -> RequestValidator.duration(
                            "INVALID_STEP", "step", text, Duration.ofMinutes(1), Duration.ofDays(1)),
                    "INVALID_STEP",
                    "step");
        }
        assertThat(RequestValidator.integer("INVALID_PAGE_SIZE", "limit", null, 1, 500, 50))
                .isEqualTo(50);
        assertThat(RequestValidator.integer("INVALID_PAGE_SIZE", "limit", "500", 1, 500, 50))
                .isEqualTo(500);
        for (String text : new String[] {"0", "501", "99999999999999", "1.5", "many"}) {
            assertProblem(
                    () -> RequestValidator.integer("INVALID_PAGE_SIZE", "limit", text, 1, 500, 50),
                    "INVALID_PAGE_SIZE",
                    "limit");
        }
    }

    @Test
    void shouldBoundStringsNamesAndIdempotencyKeys() {
        assertThat(RequestValidator.text("purpose", "x".repeat(256), RequestValidator.MAX_PURPOSE))
                .hasSize(256);
        assertProblem(
                () -> RequestValidator.text("purpose", "x".repeat(257), RequestValidator.MAX_PURPOSE),
                "TOO_LONG",
                "purpose");
        assertThat(RequestValidator.dnsLabel("namespace", "team-a-dev")).isEqualTo("team-a-dev");
        for (String name : new String[] {"Team-A", "team_a", "-team", "team-", "a".repeat(64), ""}) {
            assertProblem(() -> RequestValidator.dnsLabel("namespace", name), "INVALID_NAME", "namespace");
        }
        assertThat(RequestValidator.idempotencyKey("  ")).isNull();
        assertThat(RequestValidator.idempotencyKey("0b6f1c2e-key")).isEqualTo("0b6f1c2e-key");
        assertProblem(
                () -> RequestValidator.idempotencyKey("k".repeat(129)), "INVALID_IDEMPOTENCY_KEY", "Idempotency-Key");
        assertProblem(() -> RequestValidator.idempotencyKey("two words"), "INVALID_IDEMPOTENCY_KEY", "Idempotency-Key");
    }

    @Test
    void shouldNameTheFieldInPlainWordsWhenABodyValueHasTheWrongType() {
        assertProblem(() -> BookingRequests.create("{\"quantity\":1.5}"), "INVALID_FIELD", "quantity");
        assertProblem(() -> BookingRequests.create("{\"quantity\":\"1\"}"), "INVALID_FIELD", "quantity");
        assertProblem(() -> BookingRequests.create("{\"start\":20300101}"), "INVALID_FIELD", "start");
        assertProblem(() -> BookingRequests.create("{\"pool\":\"h200\"} trailing"), "MALFORMED_JSON", "body");
        assertProblem(
                () -> BookingRequests.change("{\"end\":\"2030-01-01T10:00:00Z\",\"end\":\"2030-01-01T11:00:00Z\"}"),
                "MALFORMED_JSON",
                "body");
        assertThatThrownBy(() -> BookingRequests.create("{\"quantity\":{}}"))
                .hasMessage("quantity must be a whole number");
    }

    private static void assertProblem(ThrowingCallable call, String rule, String field) {
        assertThatThrownBy(call).isInstanceOfSatisfying(ProblemException.class, p -> {
            assertThat(p.status()).isEqualTo(400);
            assertThat(p.rule()).isEqualTo(rule);
            assertThat(p.field()).isEqualTo(field);
            assertThat(p.getMessage()).doesNotContain("java.", "io.gpuaas", "Exception");
        });
    }
}
