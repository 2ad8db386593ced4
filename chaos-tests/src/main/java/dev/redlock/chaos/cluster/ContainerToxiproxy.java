package dev.redlock.chaos.cluster;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.ToxiproxyContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.utility.DockerImageName;

/**
 * The Testcontainers provider of the Toxiproxy chain.
 *
 * <p>The Redis nodes are host processes bound to {@code 127.0.0.1}; a container on Docker's default bridge network
 * cannot dial them, and host processes cannot reach its proxy ports without a mapping per proxy. So the container is
 * started with host networking ({@code --network host}, Linux engines only), its API on a free loopback port. When
 * that fails (no image, no registry, an engine without host networking), {@link Toxiproxy#start()} logs "not
 * supported with the container, using in-JVM" and falls through to the in-JVM server. Untested on the development
 * machines, which have no Docker engine; there the check below returns at once.
 */
final class ContainerToxiproxy implements AutoCloseable {
    static final String IMAGE = "ghcr.io/shopify/toxiproxy:2.5.0";

    private final ToxiproxyContainer container;
    private final int apiPort;

    private ContainerToxiproxy(ToxiproxyContainer container, int apiPort) {
        this.container = container;
        this.apiPort = apiPort;
    }

    /**
     * Null when a Docker engine answers; else why not. Without {@code DOCKER_HOST}, a Docker socket or a
     * Testcontainers config file, answers at once without touching Testcontainers; otherwise asks
     * {@code DockerClientFactory.isDockerAvailable()} and gives up after {@code limit}.
     */
    static String whyUnavailable(Duration limit) {
        String home = System.getProperty("user.home", "");
        boolean hint = System.getenv("DOCKER_HOST") != null
                || Files.exists(Path.of("/var/run/docker.sock"))
                || Files.exists(Path.of(home, ".docker", "run", "docker.sock"))
                || Files.exists(Path.of(home, ".testcontainers.properties"));
        if (!hint) return "no Docker engine (no DOCKER_HOST, no /var/run/docker.sock)";
        CompletableFuture<Boolean> check = CompletableFuture.supplyAsync(() -> {
            try {
                return DockerClientFactory.instance().isDockerAvailable();
            } catch (RuntimeException | LinkageError e) {
                return false;
            }
        });
        try {
            return check.get(limit.toMillis(), TimeUnit.MILLISECONDS) ? null : "Docker engine not available";
        } catch (TimeoutException e) {
            check.cancel(true);
            return "Docker check did not answer within " + limit.toSeconds() + "s";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted while checking for Docker";
        } catch (ExecutionException e) {
            return "Docker check failed: " + e.getCause();
        }
    }

    static ContainerToxiproxy start(int apiPort) {
        @SuppressWarnings("resource")
        ToxiproxyContainer c = new ToxiproxyContainer(DockerImageName.parse(IMAGE))
                .withNetworkMode("host")
                .withCommand("-host=127.0.0.1", "-port=" + apiPort)
                .waitingFor(Wait.forLogMessage(".*(API HTTP server starting|Starting Toxiproxy HTTP server).*", 1)
                        .withStartupTimeout(Duration.ofSeconds(60)));
        try {
            c.start();
        } catch (RuntimeException e) {
            c.stop();
            throw e;
        }
        return new ContainerToxiproxy(c, apiPort);
    }

    String image() {
        return IMAGE;
    }

    int apiPort() {
        return apiPort;
    }

    @Override
    public void close() {
        container.stop();
    }
}
