package io.gpuaas.events;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpuaas.events.booking.BookingCommand.CreateBooking;
import io.gpuaas.events.booking.BookingCommand.ReleaseBooking;
import io.gpuaas.events.booking.BookingEvent.BookingActivated;
import io.gpuaas.events.booking.BookingState;
import io.gpuaas.events.booking.Caller;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The book-now and release contract as a reader of the topics meets it, old and new records side by side. */
class BookingLifecycleContractTest {

    private static final String CREATE = "io.gpuaas.booking.command.create.v1";

    private static ObjectNode create() {
        return Json.mapper().valueToTree(EventSamples.all().get(CreateBooking.class));
    }

    @Test
    void shouldAcceptABookNowWhenItHasNeitherStartNorEndButADuration() {
        ObjectNode bookNow = create();
        bookNow.remove("start");

        assertThat(EventSchemas.violations(CREATE, bookNow)).isEmpty();
        CreateBooking read = Json.mapper().convertValue(bookNow, CreateBooking.class);
        assertThat(read.startsNow()).isTrue();
        assertThat(read.duration()).isEqualTo(Duration.ofHours(4));
    }

    @Test
    void shouldRefuseACreateWhenItGivesBothEndAndDurationOrNeither() {
        ObjectNode both = create().put("end", "2026-11-22T13:00:00Z");
        ObjectNode neither = create();
        neither.remove("duration");

        assertThat(EventSchemas.violations(CREATE, both)).isNotEmpty();
        assertThat(EventSchemas.violations(CREATE, neither)).isNotEmpty();
    }

    @Test
    void shouldStillReadACreateWrittenBeforeBookNowWhenItHasStartAndEnd() {
        ObjectNode classic = create().put("end", "2026-11-22T13:00:00Z");
        classic.remove("duration");
        ((ObjectNode) classic.get("caller")).remove("system");

        assertThat(EventSchemas.violations(CREATE, classic)).isEmpty();
        CreateBooking read = Json.mapper().convertValue(classic, CreateBooking.class);
        assertThat(read.duration()).isNull();
        assertThat(read.caller()).isEqualTo(new Caller("alice", "team-a", false));
        assertThat(read.caller().system()).isFalse();
    }

    @Test
    void shouldReadAnActivationWithoutRequestIdWhenTheClockActivated() throws Exception {
        JsonNode golden = Json.mapper().valueToTree(EventSamples.all().get(BookingActivated.class));
        ((ObjectNode) golden).remove("requestId");
        byte[] body = Json.mapper().writeValueAsString(golden).getBytes(StandardCharsets.UTF_8);

        Object read = EventSerdes.of(BookingActivated.class)
                .deserializer()
                .deserialize("t", EventSerdesTest.headers("io.gpuaas.booking.activated.v1"), body);

        assertThat(((BookingActivated) read).requestId()).isNull();
    }

    @Test
    void shouldRefuseAReleaseWhenItsReasonIsNotOneTheDeciderKnows() {
        ObjectNode release = Json.mapper().valueToTree(EventSamples.all().get(ReleaseBooking.class));
        release.put("reason", "BORED");

        assertThat(EventSchemas.violations("io.gpuaas.booking.command.release.v1", release))
                .isNotEmpty();
    }

    @Test
    void shouldMarkOnlyASystemCallerAsSystemWhenBookingServiceActsForATenant() {
        Caller system = Caller.system("no-show-release", "team-a");

        assertThat(system.system()).isTrue();
        assertThat(system.admin()).isFalse();
        assertThat(system.tenant()).isEqualTo("team-a");
        assertThat(new Caller("alice", "team-a", true).system()).isFalse();
    }

    @Test
    void shouldHoldNoCapacityWhenReleased() {
        assertThat(BookingState.RELEASED.holdsCapacity()).isFalse();
    }
}
