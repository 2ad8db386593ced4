package dev.redlock.chaos.proxy;

import static eu.rekawek.toxiproxy.model.ToxicDirection.DOWNSTREAM;
import static eu.rekawek.toxiproxy.model.ToxicDirection.UPSTREAM;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import eu.rekawek.toxiproxy.Proxy;
import eu.rekawek.toxiproxy.ToxiproxyClient;
import eu.rekawek.toxiproxy.model.Toxic;
import eu.rekawek.toxiproxy.model.ToxicList;
import eu.rekawek.toxiproxy.model.toxic.Bandwidth;
import eu.rekawek.toxiproxy.model.toxic.Latency;
import eu.rekawek.toxiproxy.model.toxic.LimitData;
import eu.rekawek.toxiproxy.model.toxic.ResetPeer;
import eu.rekawek.toxiproxy.model.toxic.Slicer;
import eu.rekawek.toxiproxy.model.toxic.SlowClose;
import eu.rekawek.toxiproxy.model.toxic.Timeout;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The control API, driven only through toxiproxy-java: every endpoint it reaches and the errors it reports. */
class ControlApiIT {

    private static final String NOWHERE = "127.0.0.1:9"; // upstreams here are never dialled
    private final ProxyFixture fixture = new ProxyFixture();
    private final ToxiproxyClient client = fixture.client;

    @AfterEach
    void tearDown() throws IOException {
        fixture.close();
    }

    @Test
    void createsShowsListsAndDeletesProxies() throws IOException {
        Proxy beta = client.createProxy("beta", "127.0.0.1:0", NOWHERE);
        client.createProxy("alpha", "localhost:0", "localhost:6379");

        assertTrue(beta.isEnabled());
        assertEquals("beta", beta.getName());
        assertEquals(NOWHERE, beta.getUpstream());
        assertTrue(beta.getListen().matches("127\\.0\\.0\\.1:\\d+"), beta.getListen());
        assertNotEquals(0, ProxyFixture.port(beta), "listen reports the bound port");

        Proxy shown = client.getProxy("beta");
        assertEquals(beta.getListen(), shown.getListen());
        assertEquals(NOWHERE, shown.getUpstream());
        assertTrue(shown.isEnabled());
        assertTrue(client.getProxy("alpha").getListen().matches("127\\.0\\.0\\.1:\\d+"), "localhost resolved");

        assertEquals(List.of("alpha", "beta"), names(client.getProxies()), "GET /proxies is sorted by name");

        beta.delete();
        assertEquals(List.of("alpha"), names(client.getProxies()));
        assertNull(client.getProxyOrNull("beta"));
        IOException notFound = assertThrows(IOException.class, () -> client.getProxy("beta"));
        assertEquals("[404] proxy not found", notFound.getMessage());
        assertThrows(IOException.class, beta::delete, "DELETE of a missing proxy is a 404");
        IOException updateMissing = assertThrows(IOException.class, beta::disable);
        assertEquals("[404] proxy not found", updateMissing.getMessage());
    }

    @Test
    void duplicateProxyIsAConflict() throws IOException {
        client.createProxy("dup", "127.0.0.1:0", NOWHERE);
        IOException e = assertThrows(IOException.class, () -> client.createProxy("dup", "127.0.0.1:0", NOWHERE));
        assertEquals("[409] proxy already exists", e.getMessage());
    }

    @Test
    void missingFieldsAreBadRequests() {
        IOException noUpstream = assertThrows(IOException.class, () -> client.createProxy("x", "127.0.0.1:0", null));
        assertEquals("[400] missing required field: upstream", noUpstream.getMessage());
        IOException noName = assertThrows(IOException.class, () -> client.createProxy(null, "127.0.0.1:0", NOWHERE));
        assertEquals("[400] missing required field: name", noName.getMessage());
    }

    @Test
    void bindFailureIsServerErrorAndCreatesNothing() throws IOException {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            String listen = "127.0.0.1:" + taken.getLocalPort();
            IOException e = assertThrows(IOException.class, () -> client.createProxy("clash", listen, NOWHERE));
            assertTrue(e.getMessage().startsWith("[500] listen tcp " + listen), e.getMessage());
            assertNull(client.getProxyOrNull("clash"));
        }
    }

    @Test
    void deletedProxyPortIsReusableAtOnce() throws IOException {
        Proxy first = client.createProxy("reuse", "127.0.0.1:0", NOWHERE);
        String listen = first.getListen();
        for (int i = 0; i < 20; i++) {
            client.getProxy("reuse").delete();
            Proxy again = client.createProxy("reuse", listen, NOWHERE);
            assertEquals(listen, again.getListen());
        }
    }

    @Test
    void disableEnableAndUpdateAddresses() throws IOException {
        Proxy proxy = client.createProxy("upd", "127.0.0.1:0", NOWHERE);
        String listen = proxy.getListen();
        proxy.disable();
        assertFalse(proxy.isEnabled());
        assertEquals(listen, proxy.getListen());
        assertFalse(client.getProxy("upd").isEnabled());
        proxy.enable();
        assertTrue(proxy.isEnabled());
        assertEquals(listen, proxy.getListen(), "re-enabled on the same port");

        proxy.setUpstream("127.0.0.1:10");
        assertEquals("127.0.0.1:10", proxy.getUpstream());
        assertEquals(listen, proxy.getListen());
        proxy.setListen("127.0.0.1:0");
        assertTrue(proxy.isEnabled());
        assertTrue(proxy.getListen().matches("127\\.0\\.0\\.1:\\d+") && ProxyFixture.port(proxy) != 0);
        assertEquals("127.0.0.1:10", client.getProxy("upd").getUpstream());
    }

    @Test
    void toxicsOfEveryTypeCanBeCreatedReadUpdatedAndRemoved() throws IOException {
        Proxy proxy = client.createProxy("tox", "127.0.0.1:0", NOWHERE);
        ToxicList toxics = proxy.toxics();
        toxics.latency("lat", DOWNSTREAM, 100);
        toxics.bandwidth("bw", UPSTREAM, 50);
        toxics.slowClose("sc", DOWNSTREAM, 10);
        toxics.timeout("to", UPSTREAM, 20);
        toxics.resetPeer("rp", DOWNSTREAM, 30);
        Slicer slicer = toxics.slicer("sl", UPSTREAM, 5, 7);
        toxics.limitData("ld", DOWNSTREAM, 40);

        assertEquals(List.of("bw", "to", "sl", "lat", "sc", "rp", "ld"),
                toxics.getAll().stream().map(Toxic::getName).collect(Collectors.toList()),
                "upstream toxics first, then downstream, each in insertion order");
        assertEquals(50, toxics.get("bw", Bandwidth.class).getRate());
        assertEquals(10, toxics.get("sc", SlowClose.class).getDelay());
        assertEquals(20, toxics.get("to", Timeout.class).getTimeout());
        assertEquals(30, toxics.get("rp", ResetPeer.class).getTimeout());
        assertEquals(40, toxics.get("ld", LimitData.class).getBytes());
        assertEquals(UPSTREAM, toxics.get("to").getStream());

        Latency latency = toxics.get("lat", Latency.class);
        assertEquals(100, latency.getLatency());
        assertEquals(0, latency.getJitter(), "unset attributes are reported as 0");
        assertEquals(1.0f, latency.getToxicity());
        assertEquals(DOWNSTREAM, latency.getStream());
        latency.setJitter(20);
        assertEquals(100, toxics.get("lat", Latency.class).getLatency(), "attributes are merged on update");
        assertEquals(20, toxics.get("lat", Latency.class).getJitter());
        latency.setToxicity(0.5f);
        assertEquals(0.5f, toxics.get("lat").getToxicity());

        slicer.setSizeVariation(2);
        Slicer read = toxics.get("sl", Slicer.class);
        assertEquals(5, read.getAverageSize());
        assertEquals(2, read.getSizeVariation());
        assertEquals(7, read.getDelay());

        IOException duplicate = assertThrows(IOException.class, () -> toxics.latency("lat", UPSTREAM, 1));
        assertEquals("[409] toxic already exists", duplicate.getMessage(), "names are unique across streams");

        latency.remove();
        IOException gone = assertThrows(IOException.class, () -> toxics.get("lat"));
        assertEquals("[404] toxic not found", gone.getMessage());
        assertThrows(IOException.class, latency::remove, "DELETE of a missing toxic is a 404");
        IOException updateGone = assertThrows(IOException.class, () -> latency.setLatency(5));
        assertEquals("[404] toxic not found", updateGone.getMessage());
        assertEquals(6, toxics.getAll().size());

        proxy.delete();
        IOException noProxy = assertThrows(IOException.class, toxics::getAll);
        assertEquals("[404] proxy not found", noProxy.getMessage());
        IOException noProxyCreate = assertThrows(IOException.class, () -> toxics.latency("x", UPSTREAM, 1));
        assertEquals("[404] proxy not found", noProxyCreate.getMessage());
    }

    @Test
    void resetEnablesEveryProxyAndRemovesEveryToxic() throws IOException {
        Proxy proxy = client.createProxy("rst", "127.0.0.1:0", NOWHERE);
        proxy.toxics().latency("down", DOWNSTREAM, 10);
        proxy.toxics().latency("up", UPSTREAM, 10);
        proxy.disable();

        client.reset();

        assertTrue(proxy.isEnabled(), "toxiproxy-java re-reads proxies after reset");
        assertTrue(proxy.toxics().getAll().isEmpty());
        assertTrue(client.getProxy("rst").isEnabled());
    }

    @Test
    void reportsAVersion() throws IOException {
        String version = client.version();
        assertTrue(version.contains("\"version\""), version);
        assertTrue(version.contains(ControlApi.VERSION), version);
    }

    private static List<String> names(List<Proxy> proxies) {
        return proxies.stream().map(Proxy::getName).collect(Collectors.toList());
    }
}
