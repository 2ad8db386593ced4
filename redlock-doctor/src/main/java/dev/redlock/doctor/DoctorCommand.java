package dev.redlock.doctor;

import dev.redlock.internal.Durations;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code doctor}: the command line of {@link Doctor}, a subcommand of the chaos CLI ({@code java -jar
 * redlock-chaos.jar doctor --nodes ...}). Prints the report (text, or JSON with {@code --json}) on standard output,
 * a progress line on standard error, and exits with the report's {@link DoctorReport#exitCode()}, or
 * {@link DoctorReport#BAD_ARGUMENTS} for a bad argument (a malformed URI among them), or {@link #INTERNAL_ERROR}.
 * Never prints a stack trace.
 */
@Command(name = "doctor", mixinStandardHelpOptions = true,
        description = {"Measure Redis nodes the way redlock uses them and recommend settings.",
                "Exit: 0 ok, 1 a node fails a check (STRICT preflight, denied command), 2 bad arguments, "
                        + "3 a node unreachable, 4 a node refused the login, 70 internal error."})
public final class DoctorCommand implements Callable<Integer> {
    /** Something the doctor did not expect (a bug): the message is printed, never a stack trace. */
    public static final int INTERNAL_ERROR = 70;

    @Option(names = "--nodes", split = ",", required = true, paramLabel = "URI",
            description = "The nodes, as in redlock.nodes: redis://[user:password@]host[:port][/db] or rediss://..., "
                    + "comma-separated.")
    List<String> nodes = new ArrayList<>();

    @Option(names = "--duration", defaultValue = "10s", converter = DurationConverter.class,
            description = "Sampling window (default ${DEFAULT-VALUE}; 1s..1h). Longer bounds the clock rate tighter.")
    Duration duration;

    @Option(names = "--max-ttl", defaultValue = "30s", converter = DurationConverter.class,
            description = "The longest lease TTL you need (default ${DEFAULT-VALUE}); restartQuarantine is at least this.")
    Duration maxTtl;

    @Option(names = "--key-prefix", defaultValue = "redlock:", description = "Your clients' keyPrefix (default ${DEFAULT-VALUE}).")
    String keyPrefix;

    @Option(names = "--interval", defaultValue = "5ms", converter = DurationConverter.class,
            description = "Time between two probes to one node (default ${DEFAULT-VALUE}).")
    Duration interval;

    @Option(names = "--probe-timeout", defaultValue = "1s", converter = DurationConverter.class,
            description = "A probe unanswered this long counts as a timeout (default ${DEFAULT-VALUE}).")
    Duration probeTimeout;

    @Option(names = "--json", description = "Print the report as JSON.")
    boolean json;

    @Option(names = "--write", paramLabel = "FILE",
            description = "Write the recommended redlock.* settings (and chaos.ttl) to FILE, e.g. redlock.properties.")
    Path write;

    private final PrintStream out;
    private final PrintStream err;
    private final boolean console;

    public DoctorCommand() {
        this(System.out, System.err, System.console() != null);
    }

    DoctorCommand(PrintStream out, PrintStream err, boolean console) {
        this.out = out;
        this.err = err;
        this.console = console;
    }

    @Override
    public Integer call() {
        Doctor doctor;
        try {
            doctor = Doctor.builder().nodes(nodes.stream().map(String::trim).filter(s -> !s.isEmpty()).toList())
                    .duration(duration).maxTtl(maxTtl).keyPrefix(keyPrefix).interval(interval).probeTimeout(probeTimeout)
                    .build();
        } catch (IllegalArgumentException e) {
            err.println("doctor: " + e.getMessage());
            return DoctorReport.BAD_ARGUMENTS;
        }
        DoctorReport report;
        try {
            long[] lastLine = {0};
            report = doctor.examine(line -> {
                if (console) {
                    err.print("\r[doctor] " + line + "    ");
                } else if (System.nanoTime() - lastLine[0] > 2_000_000_000L || !line.startsWith("sampling")) {
                    lastLine[0] = System.nanoTime();
                    err.println("[doctor] " + line);
                }
            });
            if (console) err.println();
        } catch (RuntimeException e) {
            err.println("doctor: failed: " + e);
            return INTERNAL_ERROR;
        }
        out.print(json ? report.toJson() : report.toText());
        if (write != null) {
            if (report.recommendation().isEmpty()) {
                err.println("doctor: " + write + " not written: no node could be measured");
            } else {
                try {
                    writePrivate(write, report.toProperties());
                    err.println("doctor: wrote " + write.toAbsolutePath() + (report.exitCode() == DoctorReport.OK ? ""
                            : " (with the problems above as comments: fix them first)"));
                } catch (IOException e) {
                    err.println("doctor: cannot write " + write + ": " + e.getMessage());
                    return DoctorReport.BAD_ARGUMENTS;
                }
            }
        }
        return report.exitCode();
    }

    /** Owner read/write only where the file system has POSIX permissions (the file holds the nodes' credentials). */
    private static void writePrivate(Path file, String text) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        if (dir != null) Files.createDirectories(dir);
        Files.writeString(file, text);
        try {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        } catch (UnsupportedOperationException e) {
            // not a POSIX file system: the platform's defaults apply
        }
    }

    /** {@code 300ms}, {@code 2s}, {@code 1m}, {@code 1h}, ISO-8601 ({@code PT2S}), or a number of milliseconds. */
    static final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            try {
                return Durations.parse("'" + value + "'", value);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException("'" + value + "' is not a duration (e.g. 300ms, 10s, 1m, PT10S)");
            }
        }
    }

    /** Runs the command alone ({@code java -cp ... dev.redlock.doctor.DoctorCommand --nodes ...}). */
    public static void main(String[] args) {
        System.exit(new CommandLine(new DoctorCommand()).execute(args));
    }
}
