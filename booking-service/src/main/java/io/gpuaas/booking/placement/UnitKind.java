package io.gpuaas.booking.placement;

/** What one unit of a booking on a flexible pool is: one MIG instance of a profile, or a whole GPU in non-MIG mode. */
public sealed interface UnitKind permits UnitKind.Mig, UnitKind.WholeGpu {

    /** One instance of {@code profile}, a GPU instance profile of the pool's GPU model. */
    static UnitKind mig(String profile) {
        return new Mig(profile);
    }

    /** A whole GPU, MIG disabled, nothing else on it. */
    static UnitKind whole() {
        return WholeGpu.INSTANCE;
    }

    /**
     * One MIG instance.
     *
     * @param profile the GPU instance profile's name, e.g. {@code 3g.71gb}
     */
    record Mig(String profile) implements UnitKind {

        /** Rejects a blank profile name. */
        public Mig {
            if (profile == null || profile.isBlank()) {
                throw new IllegalArgumentException("a MIG unit needs a profile");
            }
        }

        @Override
        public String toString() {
            return profile;
        }
    }

    /** A whole GPU in non-MIG mode. */
    record WholeGpu() implements UnitKind {

        static final WholeGpu INSTANCE = new WholeGpu();

        @Override
        public String toString() {
            return "WHOLE";
        }
    }
}
