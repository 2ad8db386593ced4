package dev.redlock.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The id of a node list (what the nodes' membership records name): its entries count, their order does not. */
class RedisUriListIdTest {
    private static String id(String... uris) {
        return RedisUri.listId(List.of(uris).stream().map(u -> RedisUri.parse(u, "nodes")).toList());
    }

    @Test
    void theOrderAndTheCredentialsDoNotMatterTheEntriesDo() {
        String a = id("redis://10.0.0.1:6379", "redis://10.0.0.2:6379", "redis://10.0.0.3:6379");
        assertEquals(12, a.length());
        assertEquals(a, id("redis://10.0.0.3:6379", "redis://:pw@10.0.0.1:6379", "redis://10.0.0.2"));
        assertNotEquals(a, id("redis://10.0.0.1:6379", "redis://10.0.0.2:6379", "redis://10.0.0.3:6379/1"));
        assertNotEquals(a, id("redis://10.0.0.1:6379", "redis://10.0.0.2:6379"));
        assertEquals(id("redis://HOST:1"), id("redis://host:1"), "host names compare in lower case");
    }

    @Test
    void aNamedNodeIsItsNameWhateverTheAddress() {
        assertEquals(id("redis://10.0.0.1:1?name=n1", "redis://10.0.0.2:2?name=n2"),
                id("redis://proxy:7001?name=n2", "redis://proxy:7000?name=n1"));
        assertEquals("name:n1", RedisUri.parse("redis://h:1?name=n1", "nodes").listKey());
        assertEquals("[::1]:6379/2", RedisUri.parse("redis://[::1]:6379/2", "nodes").listKey());
    }
}
