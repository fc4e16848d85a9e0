package io.gpuaas.local.fleet;

/**
 * What one scrape reads from one device. For a MIG instance the clocks, temperature and power are those of the
 * parent GPU, as the driver reports them. The encoder always reads 0: no simulated workload encodes.
 */
record DeviceReading(
        double utilization,
        double smClockMhz,
        double memClockMhz,
        double temperatureC,
        double powerW,
        double energyMj,
        double memoryUsedMib,
        double memoryFreeMib,
        double decoderPercent) {}
