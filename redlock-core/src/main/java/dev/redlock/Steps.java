package dev.redlock;

import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link RedlockListener.Step}s of several listeners as one, and ending them safely: the library calls
 * {@link #end} and never sees what a listener's step throws.
 */
final class Steps {
    private static final Logger log = LoggerFactory.getLogger(Steps.class);

    private Steps() {}

    /** Both steps (either may be null): ending the result ends each. */
    static RedlockListener.Step both(RedlockListener.Step a, RedlockListener.Step b) {
        if (a == null) return b;
        if (b == null) return a;
        return (outcome, error) -> {
            end(a, outcome, error);
            end(b, outcome, error);
        };
    }

    /** Ends {@code step}; what it throws is logged, never passed on. */
    static void end(RedlockListener.Step step, String outcome, Throwable error) {
        try {
            step.end(outcome, error);
        } catch (RuntimeException e) {
            log.debug("a RedlockListener step threw in end({})", outcome, e);
        }
    }

    /** {@code released} when at least {@code quorum} nodes (all, when fewer) answered the release, else {@code incomplete}. */
    static String releaseOutcome(QuorumCall call, int quorum) {
        List<NodeVote> votes = call.snapshot();
        int answered = 0;
        for (NodeVote v : votes) {
            if (v != null && v.kind() != NodeOutcome.Kind.TIMEOUT && v.kind() != NodeOutcome.Kind.ERROR) answered++;
        }
        return answered >= Math.min(quorum, votes.size()) ? "released" : "incomplete";
    }
}
