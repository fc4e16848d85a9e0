package io.gpuaas.metrics.remotewrite;

import io.gpuaas.events.gpu.GpuScrape;
import io.gpuaas.metrics.dcgm.DcgmField;
import io.gpuaas.metrics.remotewrite.LabelSlots.Slot;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Maps the series of one remote-write request to GpuScrapes, one per node and timestamp (Prometheus stamps every
 * sample of a scrape with the scrape's time), devices in first-seen order, each with a utilization (see
 * {@link NodeScrape#toScrape}). Only the DCGM series of {@link DcgmField}
 * are read; any other series is counted and passed over. A series without {@code __name__} (the spec requires it),
 * or a DCGM series without a UUID or without a node is invalid: counted, its samples dropped, the rest of the request
 * still mapped. One per request; not thread-safe.
 */
public final class ScrapeAssembler implements WriteRequestReader.SeriesHandler {

    private final LabelSlots slots;
    private final int[] index = new int[LabelSlots.COUNT];
    private final int[] rank = new int[LabelSlots.COUNT];
    private final Map<NodeTime, NodeScrape> byNodeTime = new HashMap<>();
    private final List<NodeScrape> scrapes = new ArrayList<>();
    private NodeScrape last;
    private int series;
    private int samples;
    private int dcgmSamples;
    private int invalidSeries;
    private String firstInvalid;

    private record NodeTime(String node, long timestampMillis) {}

    ScrapeAssembler(LabelSlots slots) {
        this.slots = slots;
    }

    @Override
    public void series(Series s) {
        series++;
        samples += s.sampleCount();
        // Most series of a scrape are not read (temperatures, clocks, up, scrape_*): their name is all they cost.
        int name = slots.nameLabel(s);
        if (name < 0) {
            invalid("a series without __name__");
            return;
        }
        DcgmField field = s.fieldNamedBy(name);
        if (field == null) {
            return;
        }
        slots.resolve(s, index, rank);
        if (index[Slot.UUID.ordinal()] < 0) {
            invalid("a " + s.value(name) + " series without a UUID label");
            return;
        }
        int nodeLabel = index[Slot.NODE.ordinal()] >= 0 ? index[Slot.NODE.ordinal()] : index[Slot.INSTANCE.ordinal()];
        if (nodeLabel < 0) {
            invalid("a " + s.value(name) + " series without a node label or instance");
            return;
        }
        for (int k = 0; k < s.sampleCount(); k++) {
            NodeScrape scrape = scrape(s, nodeLabel, s.sampleTimestamp(k));
            scrape.device(s, index).set(field, s.sampleValue(k));
            dcgmSamples++;
        }
    }

    private NodeScrape scrape(Series s, int nodeLabel, long timestamp) {
        if (last != null && last.timestampMillis == timestamp && s.valueIs(nodeLabel, last.nodeLabelBytes)) {
            return last;
        }
        boolean fromInstance = nodeLabel == index[Slot.INSTANCE.ordinal()];
        String node = fromInstance ? host(s.value(nodeLabel)) : s.value(nodeLabel);
        NodeScrape scrape = byNodeTime.get(new NodeTime(node, timestamp));
        if (scrape == null) {
            scrape = new NodeScrape(s.valueBytes(nodeLabel), node, timestamp, s.value(index[Slot.INSTANCE.ordinal()]));
            byNodeTime.put(new NodeTime(node, timestamp), scrape);
            scrapes.add(scrape);
        }
        last = scrape;
        return scrape;
    }

    /**
     * The host of an {@code instance} label ({@code host:port}, {@code [v6]:port} or a bare host), as a configured
     * scrape target is named by its URL's host: the same exporter gets the same node either way.
     */
    static String host(String instance) {
        if (instance.startsWith("[")) {
            int close = instance.indexOf(']');
            return close > 0 ? instance.substring(1, close) : instance;
        }
        int colon = instance.lastIndexOf(':');
        if (colon <= 0 || instance.indexOf(':') != colon) {
            return instance;
        }
        for (int i = colon + 1; i < instance.length(); i++) {
            if (!Character.isDigit(instance.charAt(i))) {
                return instance;
            }
        }
        return instance.substring(0, colon);
    }

    private void invalid(String what) {
        invalidSeries++;
        if (firstInvalid == null) {
            firstInvalid = "series " + series + ": " + what;
        }
    }

    /** What the request held: its GpuScrapes in first-seen order and the counts the endpoint reports. */
    public Mapped result() {
        List<GpuScrape> out = new ArrayList<>(scrapes.size());
        int named = 0;
        int devices = 0;
        for (NodeScrape scrape : scrapes) {
            named += scrape.deviceCount();
            GpuScrape mapped = scrape.toScrape();
            if (mapped != null) {
                out.add(mapped);
                devices += mapped.devices().size();
            }
        }
        return new Mapped(out, series, samples, dcgmSamples, devices, named - devices, invalidSeries, firstInvalid);
    }

    /**
     * The mapping of one request.
     *
     * @param scrapes       one GpuScrape per node and timestamp
     * @param series        time series read
     * @param samples       samples read, of every series
     * @param dcgmSamples   samples of DCGM series mapped onto a device
     * @param devices       device readings in {@code scrapes}
     * @param partial       devices left out because the request held no utilization of theirs (only memory or
     *                      power: their utilization series went in another request)
     * @param invalidSeries series dropped as invalid
     * @param firstInvalid  what was wrong with the first of them, in the sender's terms; null when none
     */
    public record Mapped(
            List<GpuScrape> scrapes,
            int series,
            int samples,
            int dcgmSamples,
            int devices,
            int partial,
            int invalidSeries,
            String firstInvalid) {}
}
