package dev.redlock.chaos.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import eu.rekawek.toxiproxy.Proxy;
import eu.rekawek.toxiproxy.ToxiproxyClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Modifier;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The public surface: what {@link ToxiproxyServer} exposes, and what {@code close()} guarantees. */
class ToxiproxyServerIT {

    @Test
    void onlyToxiproxyServerIsPublic() throws IOException, URISyntaxException, ClassNotFoundException {
        Path classes = Path.of(ToxiproxyServer.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path packageDir = classes.resolve(ToxiproxyServer.class.getPackageName().replace('.', '/'));
        List<String> names;
        try (Stream<Path> files = Files.list(packageDir)) {
            names = files.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(".class") && !n.contains("$") && !n.equals("package-info.class"))
                    .map(n -> n.substring(0, n.length() - ".class".length()))
                    .sorted()
                    .collect(Collectors.toList());
        }
        assertTrue(names.size() > 10, "found the package's classes: " + names);
        StringBuilder publicOnes = new StringBuilder();
        for (String name : names) {
            Class<?> type = Class.forName(ToxiproxyServer.class.getPackageName() + "." + name);
            if (Modifier.isPublic(type.getModifiers())) {
                publicOnes.append(name);
            }
        }
        assertEquals("ToxiproxyServer", publicOnes.toString(), "the rest of the package is machinery");
    }

    @Test
    void closeStopsEverythingAndIsIdempotent() throws Exception {
        // other servers may live in this JVM (the chaos suite shares one): only this server's threads must go
        Set<String> before = Thread.getAllStackTraces().keySet().stream().map(Thread::getName)
                .filter(n -> n.startsWith("toxiproxy-")).collect(Collectors.toSet());
        ToxiproxyServer server = ToxiproxyServer.start("127.0.0.1", 0);
        TcpServer upstream = TcpServer.echo();
        Socket client = new Socket();
        try {
            Proxy proxy = new ToxiproxyClient("127.0.0.1", server.port())
                    .createProxy("p", "127.0.0.1:0", upstream.address());
            client.setSoTimeout(5_000);
            client.connect(ProxyFixture.address(proxy.getListen()), 2_000);
            ProxyFixture.roundTripMillis(client, new byte[] {1});

            server.close();
            server.close();

            ProxyLifecycleIT.assertClosedByPeer(client);
            assertRefused(new InetSocketAddress("127.0.0.1", server.port()));
            assertRefused(ProxyFixture.address(proxy.getListen()));
            List<String> left = serverThreads(before);
            assertTrue(left.isEmpty(), "threads left: " + left);
        } finally {
            client.close();
            upstream.close();
            server.close();
        }
    }

    @Test
    void startFailsClearlyWhenThePortIsTaken() {
        try (ToxiproxyServer first = ToxiproxyServer.start("127.0.0.1", 0)) {
            UncheckedIOException e = assertThrows(UncheckedIOException.class,
                    () -> ToxiproxyServer.start("127.0.0.1", first.port()));
            assertTrue(e.getMessage().contains(String.valueOf(first.port())), e.getMessage());
        }
    }

    private static void assertRefused(InetSocketAddress address) throws IOException {
        try (Socket socket = new Socket()) {
            assertThrows(ConnectException.class, () -> socket.connect(address, 2_000), address + " still open");
        }
    }

    /** Live toxiproxy threads not in {@code ignore}, once none are left or after 5 s. */
    private static List<String> serverThreads(Set<String> ignore) throws InterruptedException {
        long deadline = System.nanoTime() + 5_000_000_000L;
        List<String> alive;
        do {
            alive = Thread.getAllStackTraces().keySet().stream()
                    .filter(Thread::isAlive)
                    .map(Thread::getName)
                    .filter(n -> n.startsWith("toxiproxy-") && !ignore.contains(n))
                    .collect(Collectors.toList());
            if (!alive.isEmpty()) {
                Thread.sleep(20);
            }
        } while (!alive.isEmpty() && System.nanoTime() < deadline);
        return alive;
    }
}
