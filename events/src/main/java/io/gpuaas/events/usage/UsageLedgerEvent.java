package io.gpuaas.events.usage;

/** The values of {@code gpuaas.usage-ledger}. */
public sealed interface UsageLedgerEvent permits UsageDaily {}
