package dev.redlock;

/**
 * One thing a preflight check found on one node. Immutable.
 *
 * @param node    {@code host:port}, never credentials
 * @param setting what was checked ({@code maxmemory-policy}, {@code role}, {@code clock}, {@code redis_version},
 *                {@code CONFIG})
 * @param refuse  true when the setting breaks a guarantee ({@link Preflight#STRICT} refuses the node); false for
 *                what is only unknown or untested (a warning in every mode)
 * @param message one line that names the node, the setting and its value, and what to do
 */
record PreflightFinding(String node, String setting, boolean refuse, String message) {
    @Override
    public String toString() {
        return message;
    }
}
