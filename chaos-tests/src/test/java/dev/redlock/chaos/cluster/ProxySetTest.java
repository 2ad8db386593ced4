package dev.redlock.chaos.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class ProxySetTest {
    @Test
    void mainHitsEveryClientAClientsOwnSetOnlyThatClient() {
        assertTrue(ProxySet.MAIN.isMain());
        assertEquals("main", ProxySet.MAIN.name());
        assertEquals(List.of(), ProxySet.MAIN.clients());
        ProxySet c3 = ProxySet.ofClient(3);
        assertFalse(c3.isMain());
        assertEquals("c3", c3.name());
        assertEquals("c3", c3.toString());
        assertEquals(List.of(3), c3.clients());
        assertEquals(c3, ProxySet.ofClient(3));
    }

    @Test
    void aNegativeClientIsRejected() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ProxySet.ofClient(-1));
        assertTrue(e.getMessage().contains("client"), e.getMessage());
    }
}
