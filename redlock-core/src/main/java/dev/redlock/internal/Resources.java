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
     *                                  starts with {@code __} (reserved for the library's own keys), or holds an
     *                                  unpaired surrogate (not encodable in UTF-8: the key would be a {@code ?} and
     *                                  collide with other names)
     */
    public static String check(String resource) {
        if (resource == null || resource.isEmpty() || resource.length() > 1024 || resource.startsWith("__")) {
            throw new IllegalArgumentException("resource must be 1..1024 characters and not start with '__' (reserved), got "
                    + (resource == null ? "null" : "'" + resource + "'"));
        }
        for (int i = 0; i < resource.length(); i++) {
            char c = resource.charAt(i);
            if (!Character.isSurrogate(c)) continue;
            boolean paired = Character.isHighSurrogate(c) && i + 1 < resource.length()
                    && Character.isLowSurrogate(resource.charAt(i + 1));
            if (!paired) {
                throw new IllegalArgumentException("resource must be valid UTF-16 (it is sent as UTF-8), but has an "
                        + "unpaired surrogate \\u" + String.format("%04X", (int) c) + " at index " + i + ": '"
                        + resource.replace(c, '?') + "'");
            }
            i++;
        }
        return resource;
    }
}
