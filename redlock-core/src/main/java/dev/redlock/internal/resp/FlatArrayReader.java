package dev.redlock.internal.resp;

/**
 * A command's own reader of a flat array reply (every element an integer or a string: no nesting, no nil, no error
 * element), given by {@link RespCommand#flatArrayReader()}: builds the reply from the elements as they were parsed,
 * without the generic reply's list and boxed numbers. Any other shape, and a null from {@link #build}, gives the
 * generic reply (a {@code List}) instead, so a reader only says how to store what it expects. Runs on the event loop.
 */
@FunctionalInterface
public interface FlatArrayReader {
    /**
     * The reply of {@code n} elements: element {@code i} is {@code strings[i]} when that is not null, else the
     * integer {@code ints[i]}. Both arrays are the decoder's and are reused for the next reply: copy what you keep.
     * Null when the elements are not what this reader builds (the decoder then makes the generic list).
     */
    Object build(int n, long[] ints, String[] strings);
}
