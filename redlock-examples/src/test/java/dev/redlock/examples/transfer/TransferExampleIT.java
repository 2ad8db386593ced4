package dev.redlock.examples.transfer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.redlock.RedlockConfig;
import dev.redlock.examples.support.ExampleNodes;
import dev.redlock.testkit.RedisNodesExtension;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The transfer example on 3 real redis-server processes: both directions finish, nothing lost, nothing refused. */
class TransferExampleIT {
    @RegisterExtension
    static final RedisNodesExtension REDIS = new RedisNodesExtension(3);

    @Test
    void transfersInOppositeOrdersAllFinishAndKeepTheTotal() throws Exception {
        RedlockConfig config = TransferExample.config(ExampleNodes.of(REDIS.cluster())).toBuilder()
                .restartQuarantine(Duration.ZERO).build();
        TransferExample.Outcome o = TransferExample.run(config);
        assertEquals(2 * TransferExample.TRANSFERS_PER_WORKER, o.transfers(), o.toString());
        assertEquals(2 * TransferExample.OPENING_BALANCE, o.balanceA() + o.balanceB(), o.toString());
        assertEquals(TransferExample.OPENING_BALANCE, o.balanceA(), "as many transfers each way: " + o);
        assertEquals(0, o.refusedWrites(), o.toString());
    }
}
