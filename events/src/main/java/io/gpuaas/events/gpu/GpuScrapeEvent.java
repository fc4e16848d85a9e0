package io.gpuaas.events.gpu;

/** The values of {@code gpuaas.gpu-samples}. */
public sealed interface GpuScrapeEvent permits GpuScrape {}
