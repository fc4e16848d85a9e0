package io.gpuaas.bench.mig;

/** A fleet the replay offers book-now asks to, in start order. */
interface Fleet {

    /** Whether every unit of {@code ask} was placed (all or none). */
    boolean place(Ask ask);

    int gpus();
}
