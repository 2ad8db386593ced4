package dev.redlock.chaos.nemesis;

import dev.redlock.chaos.cluster.ChaosCluster;
import dev.redlock.chaos.cluster.ProxySet;
import dev.redlock.chaos.cluster.Toxiproxy;
import dev.redlock.chaos.history.History;
import dev.redlock.chaos.workload.Resource;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/** For the families' ITs: one real redis-server behind the in-JVM Toxiproxy, a nemesis on it, PING through a proxy. */
final class OneNode implements AutoCloseable {
    final ChaosCluster cluster;
    final History history = new History(1, 1);
    final Nemesis nemesis;

    OneNode() {
        cluster = ChaosCluster.start(Toxiproxy.shared(), 1, false);
        nemesis = new Nemesis(cluster, history, new Resource(history), ClockMode.SIMULATED_TTL, "t:");
    }

    /** PING node 0 through its main proxy; the reply, or the failure's class name. */
    String pingThroughProxy(int timeoutMs) {
        URI uri = URI.create(cluster.uris(ProxySet.MAIN).get(0).replaceAll("\\?.*$", ""));
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(uri.getHost(), uri.getPort()), timeoutMs);
            s.setSoTimeout(timeoutMs);
            OutputStream out = s.getOutputStream();
            out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            StringBuilder line = new StringBuilder();
            for (int c = in.read(); c != -1 && c != '\r'; c = in.read()) line.append((char) c);
            return line.length() == 0 ? "closed" : line.toString();
        } catch (IOException e) {
            return e.getClass().getSimpleName();
        }
    }

    @Override
    public void close() {
        try {
            nemesis.close();
        } finally {
            cluster.close();
        }
    }
}
