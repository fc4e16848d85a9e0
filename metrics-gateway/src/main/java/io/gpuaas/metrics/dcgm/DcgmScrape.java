package io.gpuaas.metrics.dcgm;

import io.gpuaas.events.gpu.GpuScrape;
import java.util.List;

/**
 * What one dcgm-exporter scrape yielded.
 *
 * @param scrapes  one GpuScrape per node in the output (one, unless the exporter's lines name several nodes and the
 *                 gateway knows none), its devices in first-seen order; empty when no device reported a value
 * @param devices  devices in all of them
 * @param lines    sample lines read (comments and blank lines excluded)
 * @param badLines sample lines skipped because they are not valid Prometheus text
 */
public record DcgmScrape(List<GpuScrape> scrapes, int devices, int lines, int badLines) {}
