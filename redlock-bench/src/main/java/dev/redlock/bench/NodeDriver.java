package dev.redlock.bench;

import com.google.gson.Gson;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The node-redlock driver process ({@code src/main/node/driver.js}): installs {@code redlock} and {@code ioredis}
 * with {@code npm ci} into a directory of its own (under {@code target/}), starts {@code node driver.js} there, and
 * sends it one JSON request per line on stdin, reading one JSON reply per line on stdout. One request at a time;
 * the driver's stderr goes to ours. {@link #close()} ends the process (by its handle, waiting for it).
 */
final class NodeDriver implements AutoCloseable {
    /** The driver's files, copied from the classpath (packaged from {@code src/main/node}). */
    private static final List<String> FILES = List.of("driver.js", "package.json", "package-lock.json");
    private static final Gson GSON = new Gson();

    private final Process process;
    private final BufferedWriter in;
    private final BufferedReader out;
    private final Map<String, String> versions = new LinkedHashMap<>();
    private long seq;

    /** Why the driver cannot run here (node or npm not on the PATH), or null when it can. */
    static String unavailable() {
        return unavailable(System.getenv("PATH"));
    }

    /** Why the driver could not run with {@code path} as the PATH, or null when it could. */
    static String unavailable(String path) {
        if (Executables.onPath("node", path) == null) return "node is not on the PATH";
        if (Executables.onPath("npm", path) == null) return "npm is not on the PATH";
        return null;
    }

    private NodeDriver(Process process) {
        this.process = process;
        this.in = new BufferedWriter(new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8));
        this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    /**
     * Installs the driver into {@code dir} (skipped when that exact lock file is already installed there) and
     * starts it.
     *
     * @throws IOException when node or npm is missing, {@code npm ci} fails, or the driver does not answer
     */
    static NodeDriver start(Path dir) throws IOException, InterruptedException {
        String why = unavailable();
        if (why != null) throw new IOException(why);
        install(dir);
        Process p = new ProcessBuilder(Executables.onPath("node"), "driver.js").directory(dir.toFile())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        NodeDriver d = new NodeDriver(p);
        try {
            JsonObject hello = d.call("hello", Map.of());
            hello.entrySet().forEach(e -> d.versions.put(e.getKey(), e.getValue().getAsString()));
            return d;
        } catch (IOException | RuntimeException e) {
            d.close();
            throw e;
        }
    }

    private static void install(Path dir) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        boolean same = Files.isDirectory(dir.resolve("node_modules/redlock"))
                && Files.isDirectory(dir.resolve("node_modules/ioredis"));
        for (String f : FILES) {
            byte[] want = resource(f);
            Path target = dir.resolve(f);
            if (f.equals("package-lock.json")) same &= Files.exists(target) && Arrays.equals(want, Files.readAllBytes(target));
            Files.write(target, want);
        }
        if (same) return;
        System.err.println("installing node-redlock with npm ci into " + dir.toAbsolutePath());
        Path log = dir.resolve("npm-ci.log");
        Process npm = new ProcessBuilder(Executables.onPath("npm"), "ci", "--no-audit", "--no-fund", "--loglevel=error")
                .directory(dir.toFile()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!npm.waitFor(5, TimeUnit.MINUTES)) {
            npm.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            throw new IOException("npm ci in " + dir + " took more than 5 minutes (output in " + log + ")");
        }
        if (npm.exitValue() != 0) {
            throw new IOException("npm ci in " + dir + " failed with exit code " + npm.exitValue() + ": "
                    + Files.readString(log).strip());
        }
    }

    private static byte[] resource(String name) throws IOException {
        try (InputStream s = NodeDriver.class.getResourceAsStream("/node-redlock/" + name)) {
            if (s == null) throw new IOException("node-redlock/" + name + " is not on the classpath");
            return s.readAllBytes();
        }
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** node, redlock and ioredis versions, as the driver reported them. */
    Map<String, String> versions() {
        return Map.copyOf(versions);
    }

    /**
     * Sends {@code op} with {@code args} and returns the reply's result.
     *
     * @throws IOException when the driver is gone or replies out of order
     * @throws IllegalStateException when the driver answered with an error (its message and stack)
     */
    synchronized JsonObject call(String op, Map<String, ?> args) throws IOException {
        Map<String, Object> req = new LinkedHashMap<>(args);
        req.put("seq", ++seq);
        req.put("op", op);
        in.write(GSON.toJson(req));
        in.write('\n');
        in.flush();
        String line = out.readLine();
        if (line == null) throw new IOException("node-redlock driver exited during '" + op + "'");
        JsonObject reply = JsonParser.parseString(line).getAsJsonObject();
        if (reply.get("seq").isJsonNull() || reply.get("seq").getAsLong() != seq) {
            throw new IOException("node-redlock driver replied out of order: " + line);
        }
        if (!reply.get("ok").getAsBoolean()) {
            throw new IllegalStateException("node-redlock driver failed '" + op + "': " + reply.get("error").getAsString());
        }
        return reply.getAsJsonObject("result");
    }

    /** Adds the nanosecond samples of a reply array to {@code into}. */
    static void addSamples(JsonArray samples, Latencies into) {
        for (JsonElement e : samples) into.add(e.getAsLong());
    }

    @Override
    public void close() {
        try {
            in.close();                                          // the driver closes its connections and exits
            if (!process.waitFor(5, TimeUnit.SECONDS)) process.destroy();
            if (!process.waitFor(5, TimeUnit.SECONDS)) process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        } catch (IOException e) {
            process.destroyForcibly();
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
