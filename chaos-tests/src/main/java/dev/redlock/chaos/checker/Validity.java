package dev.redlock.chaos.checker;

/**
 * A checker's verdict. Composition ranks {@code INVALID} over {@code UNKNOWN} over {@code VALID}: one invalid part
 * makes the whole invalid, and a part that could not decide (or crashed) never lets the whole pass.
 */
public enum Validity {
    VALID, UNKNOWN, INVALID;

    /** The worse of the two. */
    public Validity and(Validity other) {
        return compareTo(other) >= 0 ? this : other;
    }
}
