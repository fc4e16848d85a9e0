package io.gpuaas.metrics.dcgm;

import io.gpuaas.events.gpu.GpuSample;
import java.util.List;

/**
 * What one dcgm-exporter scrape yielded.
 *
 * @param samples  one GpuSample per device (hostname, UUID, GPU_I_ID), in first-seen order
 * @param lines    sample lines read (comments and blank lines excluded)
 * @param badLines sample lines skipped because they are not valid Prometheus text
 */
public record DcgmScrape(List<GpuSample> samples, int lines, int badLines) {}
