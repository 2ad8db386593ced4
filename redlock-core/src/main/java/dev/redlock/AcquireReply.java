package dev.redlock;

import dev.redlock.internal.resp.FlatArrayReader;
import java.util.AbstractList;
import java.util.List;
import java.util.RandomAccess;

/**
 * ACQUIRE's reply {@code {status, fence, memoryAgeMs, quarantineMs, holder, wrote, nodeUs, conflict}} (see
 * {@link LuaScript#ACQUIRE}) as the library's own transport builds it: an unmodifiable list whose numbers are stored
 * unboxed, read without boxing by {@link #longAt}. Every ACQUIRE reply of every node of every round goes through
 * here, and the generic reply (a list and three or four boxed numbers) cost about 160 bytes each. A reply of another
 * shape (an adapter's transport, an unexpected answer) stays the generic list, which {@link #longAt} reads too.
 */
final class AcquireReply extends AbstractList<Object> implements RandomAccess {
    /** Builds the reply from the wire when it has ACQUIRE's layout; null (the generic list) otherwise. */
    static final FlatArrayReader READER = (n, ints, strings) -> {
        if (n != 8 || strings[4] == null || strings[7] == null) return null;
        if (strings[0] != null || strings[1] != null || strings[2] != null || strings[3] != null || strings[5] != null
                || strings[6] != null) {
            return null;
        }
        if (ints[0] != (int) ints[0] || ints[5] != (int) ints[5]) return null;   // kept exact: status and wrote are small
        return new AcquireReply(ints, strings[4], strings[7]);
    };

    private final int status;
    private final int wrote;
    private final long fence;
    private final long age;
    private final long quarantine;
    private final long nodeUs;
    private final String holder;
    private final String conflict;

    private AcquireReply(long[] ints, String holder, String conflict) {
        this.status = (int) ints[0];
        this.fence = ints[1];
        this.age = ints[2];
        this.quarantine = ints[3];
        this.wrote = (int) ints[5];
        this.nodeUs = ints[6];
        this.holder = holder;
        this.conflict = conflict;
    }

    /** Element {@code i} of an ACQUIRE reply (either kind) as a number, without boxing for this kind. */
    static long longAt(List<?> reply, int i) {
        if (reply instanceof AcquireReply r) return r.number(i);
        return ((Number) reply.get(i)).longValue();
    }

    private long number(int i) {
        return switch (i) {
            case 0 -> status;
            case 1 -> fence;
            case 2 -> age;
            case 3 -> quarantine;
            case 5 -> wrote;
            case 6 -> nodeUs;
            default -> throw new IllegalArgumentException("element " + i + " of an ACQUIRE reply is not a number");
        };
    }

    @Override
    public Object get(int i) {
        return switch (i) {
            case 4 -> holder;
            case 7 -> conflict;
            default -> {
                if (i < 0 || i >= 8) throw new IndexOutOfBoundsException("index " + i + ", size 8");
                yield number(i);
            }
        };
    }

    @Override
    public int size() {
        return 8;
    }
}
