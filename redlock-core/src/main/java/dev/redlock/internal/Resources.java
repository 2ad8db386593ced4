package dev.redlock.internal;

/**
 * Internal, not API: the one rule for lock resource names, shared by the lock and leader election so both refuse
 * the same names with the same message. Anything here may change or disappear in any release; applications must
 * not use it.
 */
public final class Resources {
    private Resources() {}

    /**
     * @return {@code resource}
     * @throws IllegalArgumentException naming {@code resource} when it is null, empty, longer than 1024 characters,
     *                                  or starts with {@code __} (reserved for the library's own keys)
     */
    public static String check(String resource) {
        if (resource == null || resource.isEmpty() || resource.length() > 1024 || resource.startsWith("__")) {
            throw new IllegalArgumentException("resource must be 1..1024 characters and not start with '__' (reserved), got "
                    + (resource == null ? "null" : "'" + resource + "'"));
        }
        return resource;
    }
}
