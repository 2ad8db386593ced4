package dev.redlock;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/** Owner generation: 128 random bits from SecureRandom, hex. Single-threaded and with 4 threads (contention). */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class OwnerBenchmark {

    @Benchmark
    public String newOwner() {
        return RedlockContext.newOwner();
    }

    @Benchmark
    @Threads(4)
    public String newOwner4Threads() {
        return RedlockContext.newOwner();
    }
}
