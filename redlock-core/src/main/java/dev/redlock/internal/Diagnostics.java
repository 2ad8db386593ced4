package dev.redlock.internal;

import dev.redlock.RedlockConfig;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Internal, not API: what the library itself knows about the nodes it needs, for its diagnostics (the
 * {@code redlock-doctor} module), so a diagnosis applies exactly the library's own rules: the preflight checks over
 * node facts, and the commands the library sends (directly and from its scripts). {@code RedlockConfig} installs
 * the provider when its class initializes; this class initializes {@code RedlockConfig} first. Anything here may
 * change or disappear in any release; applications must not use it.
 */
public final class Diagnostics {
    private static volatile Provider provider;

    static {
        try {
            Class.forName(RedlockConfig.class.getName(), true, Diagnostics.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private Diagnostics() {}

    /** The library's side of this bridge. */
    public interface Provider {
        List<Finding> preflight(List<Facts> nodes, RedlockConfig config);

        List<CommandUse> commands();

        Map<String, String> parseInfo(String infoText);

        long clockToleranceUs(RedlockConfig config);

        Server server(Map<String, String> info);
    }

    /**
     * What one node said, as plain data.
     *
     * @param node        {@code host:port}, never credentials
     * @param info        {@code INFO} fields (server, memory, replication at least), name to value
     * @param config      values read with {@code CONFIG GET} ({@code maxmemory}, {@code maxmemory-policy},
     *                    {@code replica-read-only}), name to value; missing when not read
     * @param configError why {@code CONFIG GET} was refused, else null
     * @param clock       {@code TIME} readings, each between two readings of this host's wall clock
     */
    public record Facts(String node, Map<String, String> info, Map<String, String> config, String configError,
                        List<ClockReading> clock) {
        public Facts {
            info = Map.copyOf(info);
            config = Map.copyOf(config);
            clock = List.copyOf(clock);
        }
    }

    /** One {@code TIME} reading: this host's wall clock before, the node's clock, this host's after (us). */
    public record ClockReading(long clientBeforeUs, long nodeUs, long clientAfterUs) {}

    /**
     * One preflight finding, as {@code Preflight.STRICT} would act on it.
     *
     * @param refuse true when STRICT refuses the node; false for a warning (unknown or untested)
     */
    public record Finding(String node, String setting, boolean refuse, String message) {}

    /**
     * One command the library sends to a node.
     *
     * @param command  upper case ({@code EVALSHA}, {@code SCRIPT LOAD}: container commands with their subcommand)
     * @param usedBy   what sends it
     * @param required false when the library works without it (with the loss {@code usedBy} says)
     */
    public record CommandUse(String command, String usedBy, boolean required) {}

    /**
     * Which server a node runs, as the library's version check names it.
     *
     * @param description flavour and version, e.g. {@code Valkey 8.0.1 (redis_version 7.2.4)},
     *                    {@code Redis 8.0 pre-release (redis_version 7.9.224)}
     * @param tested      whether this project's server matrix ran that line (a warning of the version check when not)
     */
    public record Server(String description, boolean tested) {}

    /** Called once, by {@code RedlockConfig}. */
    public static synchronized void install(Provider p) {
        if (provider != null) throw new IllegalStateException("already installed");
        provider = Objects.requireNonNull(p);
    }

    /**
     * The preflight findings for these nodes under {@code config}'s settings (clock tolerance from its
     * {@code restartQuarantine}): each node's own checks, then the clocks compared across the nodes.
     */
    public static List<Finding> preflight(List<Facts> nodes, RedlockConfig config) {
        return provider.preflight(List.copyOf(nodes), Objects.requireNonNull(config, "config"));
    }

    /** Every command the library sends to a node: the transport's, then the scripts' (read from their source). */
    public static List<CommandUse> commands() {
        return provider.commands();
    }

    /** {@code INFO} text to its fields (sections and comments skipped). */
    public static Map<String, String> parseInfo(String infoText) {
        return provider.parseInfo(infoText);
    }

    /**
     * The server named by {@code INFO} fields ({@code redis_version}, {@code server_name}, {@code valkey_version});
     * null when they name no version.
     */
    public static Server server(Map<String, String> info) {
        return provider.server(Map.copyOf(info));
    }

    /**
     * How far (us) preflight lets a node's clock be from this host's and from the other nodes' under
     * {@code config}; -1 when the amnesia guard is off (no clock check).
     */
    public static long clockToleranceUs(RedlockConfig config) {
        return provider.clockToleranceUs(config);
    }
}
