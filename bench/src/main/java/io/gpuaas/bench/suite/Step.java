package io.gpuaas.bench.suite;

import java.util.List;

/**
 * One child JVM of the suite: a bench main with its arguments.
 *
 * @param id      file-name-safe id (its log is {@code <id>.log})
 * @param kind    how its output is read
 * @param size    the scale it runs at (GPUs or tenants, as the kind says; 0 when none)
 * @param main    main class
 * @param args    arguments
 * @param heap    -Xmx
 * @param timeout seconds before it is stopped
 */
record Step(String id, Kind kind, int size, String main, List<String> args, String heap, int timeout) {

    /** What a step measures, which decides how its output is read and where its section goes. */
    enum Kind {
        BASELINE("baseline"),
        BOOKING("booking"),
        NO_SHOW("booking"),
        DASHBOARD("booking"),
        FLEX("booking"),
        MIG("mig"),
        QUOTA("quota"),
        RECLAIM("reclaim"),
        REPLAY("reclaim"),
        INGEST("metrics"),
        REMOTE_WRITE("metrics"),
        RENDER("metrics"),
        SCALE("scale");

        final String area;

        Kind(String area) {
            this.area = area;
        }
    }
}
