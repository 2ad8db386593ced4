package dev.redlock.redisson;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.redisson.config.Config;

/** Redisson clients as an application would configure them for redlock; every one made is shut down by {@link #close()}. */
public final class TestClients implements AutoCloseable {
    private final List<RedissonClient> made = new ArrayList<>();

    /** One client per URI: no Redisson retries, a reply timeout well above nodeTimeout (late grants are still seen). */
    public synchronized List<RedissonClient> connect(List<String> uris) {
        List<RedissonClient> out = new ArrayList<>();
        for (String uri : uris) {
            Config c = new Config();
            c.setCodec(StringCodec.INSTANCE);
            c.useSingleServer().setAddress(uri).setRetryAttempts(0).setTimeout(5000)
                    .setConnectionMinimumIdleSize(1).setConnectionPoolSize(8)
                    .setSubscriptionConnectionMinimumIdleSize(1).setSubscriptionConnectionPoolSize(1);
            RedissonClient client = Redisson.create(c);
            made.add(client);
            client.getBucket("warm-up").isExists();          // connected before the first vote is timed
            out.add(client);
        }
        return out;
    }

    @Override
    public synchronized void close() {
        for (RedissonClient c : made) c.shutdown(0, 2, TimeUnit.SECONDS);
        made.clear();
    }
}
