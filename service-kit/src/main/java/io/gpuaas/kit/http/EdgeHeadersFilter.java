package io.gpuaas.kit.http;

import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.ResponseFilter;
import io.micronaut.http.annotation.ServerFilter;

/** {@link EdgeHeaders} on every answer that passes the filters; the error processor covers the rest. */
@ServerFilter(ServerFilter.MATCH_ALL_PATTERN)
public class EdgeHeadersFilter {

    @ResponseFilter
    public void addEdgeHeaders(MutableHttpResponse<?> response) {
        EdgeHeaders.apply(response);
    }
}
