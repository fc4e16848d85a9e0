package io.gpuaas.events.quota;

/** The values of {@code gpuaas.quota-state}. */
public sealed interface QueueStateEvent permits QueueState {}
