package dev.redlock;

import java.util.Arrays;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link RedlockListener}s of one {@link Redlock}: a copy-on-write array, so dispatching takes no lock and, with
 * no listener, loops over nothing. Call sites that would compute an argument (a clock read) check {@link #any()}
 * first. A listener that throws is logged (the first time at WARN, then at DEBUG) and the others still run.
 */
final class Listeners implements RedlockListener {
    private static final Logger log = LoggerFactory.getLogger(Listeners.class);
    private static final RedlockListener[] NONE = {};

    private volatile RedlockListener[] all = NONE;
    private volatile boolean warned;

    synchronized void add(RedlockListener l) {
        Objects.requireNonNull(l, "listener");
        RedlockListener[] next = Arrays.copyOf(all, all.length + 1);
        next[all.length] = l;
        all = next;
    }

    synchronized boolean remove(RedlockListener l) {
        RedlockListener[] now = all;
        for (int i = 0; i < now.length; i++) {
            if (now[i] == l) {
                RedlockListener[] next = new RedlockListener[now.length - 1];
                System.arraycopy(now, 0, next, 0, i);
                System.arraycopy(now, i + 1, next, i, now.length - i - 1);
                all = next;
                return true;
            }
        }
        return false;
    }

    /** True when at least one listener is registered. */
    boolean any() {
        return all.length != 0;
    }

    private void failed(RedlockListener l, String event, RuntimeException e) {
        if (!warned) {
            warned = true;
            log.warn("RedlockListener {} threw in {} (further failures are logged at debug)", l, event, e);
        } else {
            log.debug("RedlockListener {} threw in {}", l, event, e);
        }
    }

    @Override
    public Step onAcquireStart(String resource, AcquireMode mode) {
        Step out = null;
        for (RedlockListener l : all) {
            try {
                out = Steps.both(out, l.onAcquireStart(resource, mode));
            } catch (RuntimeException e) {
                failed(l, "onAcquireStart", e);
            }
        }
        return out;
    }

    @Override
    public Step onExtendStart(String resource, ExtendTrigger trigger) {
        Step out = null;
        for (RedlockListener l : all) {
            try {
                out = Steps.both(out, l.onExtendStart(resource, trigger));
            } catch (RuntimeException e) {
                failed(l, "onExtendStart", e);
            }
        }
        return out;
    }

    @Override
    public Step onReleaseStart(String resource) {
        Step out = null;
        for (RedlockListener l : all) {
            try {
                out = Steps.both(out, l.onReleaseStart(resource));
            } catch (RuntimeException e) {
                failed(l, "onReleaseStart", e);
            }
        }
        return out;
    }

    @Override
    public void onAcquire(String resource, AcquireMode mode, AcquireOutcome outcome, int rounds, long nanos) {
        for (RedlockListener l : all) {
            try {
                l.onAcquire(resource, mode, outcome, rounds, nanos);
            } catch (RuntimeException e) {
                failed(l, "onAcquire", e);
            }
        }
    }

    @Override
    public void onNodeRequest(int node, String address, Operation operation, NodeOutcome.Kind result, long nanos) {
        for (RedlockListener l : all) {
            try {
                l.onNodeRequest(node, address, operation, result, nanos);
            } catch (RuntimeException e) {
                failed(l, "onNodeRequest", e);
            }
        }
    }

    @Override
    public void onLeaseGranted(String resource, long validityNanos) {
        for (RedlockListener l : all) {
            try {
                l.onLeaseGranted(resource, validityNanos);
            } catch (RuntimeException e) {
                failed(l, "onLeaseGranted", e);
            }
        }
    }

    @Override
    public void onExtend(String resource, ExtendTrigger trigger, boolean extended, long nanos, long validityNanos) {
        for (RedlockListener l : all) {
            try {
                l.onExtend(resource, trigger, extended, nanos, validityNanos);
            } catch (RuntimeException e) {
                failed(l, "onExtend", e);
            }
        }
    }

    @Override
    public void onLeaseReleased(String resource) {
        for (RedlockListener l : all) {
            try {
                l.onLeaseReleased(resource);
            } catch (RuntimeException e) {
                failed(l, "onLeaseReleased", e);
            }
        }
    }

    @Override
    public void onLeaseLost(String resource, LossReason reason) {
        for (RedlockListener l : all) {
            try {
                l.onLeaseLost(resource, reason);
            } catch (RuntimeException e) {
                failed(l, "onLeaseLost", e);
            }
        }
    }

    @Override
    public void onWatchdogLateness(String resource, long lateNanos) {
        for (RedlockListener l : all) {
            try {
                l.onWatchdogLateness(resource, lateNanos);
            } catch (RuntimeException e) {
                failed(l, "onWatchdogLateness", e);
            }
        }
    }

    @Override
    public void onLeadershipChange(String election, String instanceId, boolean leader, long epoch) {
        for (RedlockListener l : all) {
            try {
                l.onLeadershipChange(election, instanceId, leader, epoch);
            } catch (RuntimeException e) {
                failed(l, "onLeadershipChange", e);
            }
        }
    }
}
