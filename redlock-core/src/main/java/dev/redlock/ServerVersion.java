package dev.redlock;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Which server a node runs, as its {@code INFO server} section names it, and whether this project's server matrix
 * ran that line. Redis reports {@code redis_version}; a pre-release reports the line before it with a patch of 200
 * or more ({@code 7.9.224} is a preview of 8.0, {@code 6.9.240} the first release candidate of 7.0). Valkey 7.2.5
 * and later report {@code server_name:valkey} and {@code valkey_version}, and a fixed {@code redis_version:7.2.4}
 * (Valkey 7.2.4, the first release, cannot be told from Redis 7.2.4). Immutable.
 *
 * @param flavour      {@code Redis}, {@code Valkey}, or another {@code server_name} as given
 * @param version      the server's own version ({@code valkey_version} on Valkey, else {@code redis_version})
 * @param major        the line's major version ({@code 8} for {@code 7.9.224})
 * @param minor        the line's minor version
 * @param preview      a pre-release of the line (patch of 200 or more)
 * @param redisVersion {@code redis_version} as reported
 */
record ServerVersion(String flavour, String version, int major, int minor, boolean preview, String redisVersion) {
    /** The Redis development branch reports this; it belongs to no line. */
    private static final String UNSTABLE = "255.255.255";

    /**
     * A server the matrix ran. A release covers every release of its line (patch releases), not its pre-releases;
     * a pre-release covers the pre-releases of its line, not its releases.
     *
     * @param flavour {@code Redis} or {@code Valkey}
     * @param line    {@code major.minor}
     * @param build   the build the matrix ran, as its project names it ({@code 7.2.6}, {@code 8.0-m01})
     * @param preview whether that build is a pre-release
     */
    record Tested(String flavour, String line, String build, boolean preview) {
        @Override
        public String toString() {
            return flavour + " " + build;
        }
    }

    /**
     * The servers this project's matrix ran the core's integration tests and the chaos suite on; the README's table
     * of tested servers is checked against this list.
     */
    static final List<Tested> TESTED = List.of(
            new Tested("Redis", "6.2", "6.2.11", false),
            new Tested("Redis", "7.0", "7.0.15", false),
            new Tested("Redis", "7.2", "7.2.6", false),
            new Tested("Redis", "7.4", "7.4.1", false),
            new Tested("Redis", "8.0", "8.0-m01", true),
            new Tested("Valkey", "8.0", "8.0.1", false));

    /** What the version rule concludes. */
    enum Support {
        /** Redis before 6.2: the scripts' calls are restricted there. */
        UNSUPPORTED,
        /** The matrix ran this line (a release of it; a pre-release of it, for a pre-release). */
        TESTED,
        /** Supported, but the matrix did not run it. */
        UNTESTED
    }

    /** The server named by {@code INFO} fields; null when {@code redis_version} is missing or not a version. */
    static ServerVersion of(Map<String, String> info) {
        String redis = info.get("redis_version");
        if (redis == null) return null;
        String name = info.get("server_name");
        boolean valkey = name != null && name.trim().equalsIgnoreCase("valkey");
        String flavour = name == null || name.isBlank() ? "Redis" : valkey ? "Valkey" : name.trim();
        String own = valkey && info.get("valkey_version") != null ? info.get("valkey_version").trim() : redis.trim();
        int[] v = parse(own);
        if (v == null) return null;
        if (own.equals(UNSTABLE)) return new ServerVersion(flavour, own, v[0], v[1], true, redis.trim());
        boolean preview = v[2] >= 200;
        int major = v[0], minor = v[1];
        if (preview) {   // X.Y.2zz is a pre-release of the next line: X.(Y+1), or (X+1).0 after X.9
            if (minor >= 9) {
                major++;
                minor = 0;
            } else {
                minor++;
            }
        }
        return new ServerVersion(flavour, own, major, minor, preview, redis.trim());
    }

    /** {@code 7.2.6} -> {6, 2, 0}... {major, minor, patch}; null when it is not a version. */
    private static int[] parse(String v) {
        String[] p = v.split("[.-]");
        try {
            return new int[] {Integer.parseInt(p[0]), p.length > 1 ? Integer.parseInt(p[1]) : 0,
                    p.length > 2 ? Integer.parseInt(p[2]) : 0};
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** {@code major.minor} of the line this build belongs to. */
    String line() {
        return major + "." + minor;
    }

    /**
     * How people name it: {@code Redis 7.4.1}, {@code Valkey 8.0.1 (redis_version 7.2.4)},
     * {@code Redis 8.0 pre-release (redis_version 7.9.224)}.
     */
    String describe() {
        if (version.equals(UNSTABLE)) return flavour + " unstable branch (redis_version " + redisVersion + ")";
        if (preview) return flavour + " " + line() + " pre-release (" + versionField() + " " + version + ")";
        return flavour + " " + version + (version.equals(redisVersion) ? "" : " (redis_version " + redisVersion + ")");
    }

    private String versionField() {
        return flavour.equals("Valkey") ? "valkey_version" : flavour.equals("Redis") ? "redis_version" : "version";
    }

    /** What the matrix says about this server. */
    Support support() {
        if (flavour.equals("Redis") && !preview && (major < 6 || (major == 6 && minor < 2))) return Support.UNSUPPORTED;
        return testedAs() != null ? Support.TESTED : Support.UNTESTED;
    }

    /** The matrix entry that covers this server, null when none does. */
    Tested testedAs() {
        if (version.equals(UNSTABLE)) return null;
        for (Tested t : TESTED) {
            if (t.flavour().equals(flavour) && t.line().equals(line()) && t.preview() == preview) return t;
        }
        return null;
    }

    /** The lines the matrix ran, for messages: {@code Redis 6.2.11, Redis 7.0.15, ...}. */
    static String testedList() {
        return TESTED.stream().map(Tested::toString).collect(Collectors.joining(", "));
    }

    /** Why a server that is not tested is not: a line tested only on a pre-release is named. */
    String whyUntested() {
        for (Tested t : TESTED) {
            if (t.flavour().equals(flavour) && t.line().equals(line()) && t.preview() && !preview) {
                return "the " + flavour + " " + line() + " line was tested on its pre-release " + t.build() + " only";
            }
        }
        return "not among the tested servers (" + testedList() + ")";
    }
}
