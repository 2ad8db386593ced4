package dev.redlock.chaos.workload;

/** What one operation read from the two stores, and when. */
public record Reads(long unfenced, long fenced, long nanos) {
}
