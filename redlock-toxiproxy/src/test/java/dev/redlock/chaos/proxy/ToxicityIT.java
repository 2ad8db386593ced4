package dev.redlock.chaos.proxy;

import static dev.redlock.chaos.proxy.ProxyFixture.roundTripMillis;
import static eu.rekawek.toxiproxy.model.ToxicDirection.DOWNSTREAM;
import static eu.rekawek.toxiproxy.model.ToxicDirection.UPSTREAM;
import static org.junit.jupiter.api.Assertions.assertTrue;

import eu.rekawek.toxiproxy.Proxy;
import eu.rekawek.toxiproxy.model.toxic.Latency;
import eu.rekawek.toxiproxy.model.toxic.Timeout;
import java.io.IOException;
import java.net.Socket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Toxicity: 0 makes a toxic a no-op; a change re-rolls it on open connections. */
class ToxicityIT {

    private final ProxyFixture fixture = new ProxyFixture();

    @AfterEach
    void tearDown() throws IOException {
        fixture.close();
    }

    @Test
    void zeroToxicityIsANoOpAndAChangeRerollsOnOpenConnections() throws IOException {
        Proxy proxy = fixture.proxyTo(fixture.echo());
        Latency latency = proxy.toxics().latency("lat", DOWNSTREAM, 3_000);
        latency.setToxicity(0f);
        Timeout timeout = proxy.toxics().timeout("hole", UPSTREAM, 0);
        timeout.setToxicity(0f);
        Socket socket = fixture.connect(proxy);

        long noOp = roundTripMillis(socket, new byte[] {1});
        System.out.printf("toxicity 0 (latency 3000 ms, timeout): round trip %d ms%n", noOp);
        assertTrue(noOp < 2_500, "a toxicity-0 latency of 3 s must not apply: " + noOp);

        timeout.remove(); // an inactive timeout toxic leaves the connection open when removed
        latency.setLatency(200);
        latency.setToxicity(1f);
        long rerolled = roundTripMillis(socket, new byte[] {2});
        System.out.printf("toxicity 1 on the same connection (latency 200 ms): round trip %d ms%n", rerolled);
        assertTrue(rerolled >= 190, "toxicity re-rolled on the open connection: " + rerolled);
    }
}
