package dev.redlock;

/**
 * For the chaos harness only (not part of the library's API): the owner value a lease wrote under its key on the
 * nodes, so the ground-truth sampler's readings can be matched to the lease that a client believes it holds. Lives in
 * the library's package because the value is deliberately not exposed by {@link Lease}.
 */
public final class LeaseOwnerValue {
    private LeaseOwnerValue() {}

    /** The 128-bit random owner value (hex) of a lease returned by {@link Redlock}; "" for any other implementation. */
    public static String of(Lease lease) {
        return lease instanceof HeldLease h ? h.owner() : "";
    }
}
