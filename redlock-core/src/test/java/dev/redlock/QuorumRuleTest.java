package dev.redlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Which node sets make a quorum: one list, or a transition between two lists (a quorum of each). */
class QuorumRuleTest {
    private static boolean[] nodes(int n, int... on) {
        boolean[] b = new boolean[n];
        for (int i : on) b[i] = true;
        return b;
    }

    @Test
    void oneList() {
        QuorumRule r = QuorumRule.of(5, 3);
        assertTrue(r.single());
        assertTrue(r.reachedBy(nodes(5, 0, 2, 4)));
        assertFalse(r.reachedBy(nodes(5, 0, 2)));
        assertEquals("3 of 5", r.describe());
    }

    /** 5 -> 7: nodes 0-6 are the new list (quorum 4), 0-4 the previous one (quorum 3). */
    @Test
    void aTransitionNeedsAQuorumOfEachList() {
        QuorumRule r = QuorumRule.joint(7, 7, 4, new int[] {0, 1, 2, 3, 4}, 3);
        assertFalse(r.single());
        assertFalse(r.reachedBy(nodes(7, 0, 1, 5, 6)), "4 of the new list, 2 of the previous: the old clients' {2,3,4} is disjoint");
        assertFalse(r.reachedBy(nodes(7, 2, 3, 4)), "3 of the previous, 3 of the new");
        assertTrue(r.reachedBy(nodes(7, 1, 2, 3, 4)));
        assertEquals("4 of 7 and 3 of the previous 5", r.describe());
    }

    @Test
    void aTallyDecidesAsSoonAsEveryGroupHasItsQuorumOrOneCannot() {
        QuorumRule r = QuorumRule.joint(7, 7, 4, new int[] {0, 1, 2, 3, 4}, 3);
        QuorumRule.Tally t = r.tally(new int[] {0, 1, 2, 3, 4, 5, 6}, false);
        for (int n : new int[] {5, 6, 0, 1}) t.count(n, true);
        assertFalse(t.reached(), "4 of the new list but 2 of the previous");
        assertFalse(t.impossible());
        t.count(2, false);
        t.count(3, false);
        assertFalse(t.impossible(), "node 4 can still make 3 of the previous list");
        t.count(4, false);
        assertTrue(t.impossible(), "3 of the previous list refused: at most 2 of 5 left");
        QuorumRule.Tally u = r.tally(new int[] {0, 1, 2, 3, 4, 5, 6}, false);
        for (int n : new int[] {0, 1, 2, 5}) u.count(n, true);
        assertTrue(u.reached());
    }

    @Test
    void aCappedTallyCountsEveryGrantOfASmallTargetSet() {
        QuorumRule r = QuorumRule.of(5, 3);
        QuorumRule.Tally t = r.tally(new int[] {4}, true);
        assertFalse(t.reached());
        t.count(4, true);
        assertTrue(t.reached(), "a release sent to one node: its answer is enough");
        assertTrue(r.tally(new int[] {1, 2}, false).impossible(), "uncapped: 2 targets can never make 3");
    }

    @Test
    void answersCountAgainstTheCappedRuleWhateverTheGrants() {
        QuorumRule r = QuorumRule.joint(7, 5, 3, new int[] {3, 4, 5, 6}, 3);
        QuorumRule.Tally t = r.tally(new int[] {0, 1, 2, 3, 4, 5, 6}, false);
        for (int n : new int[] {0, 1, 2}) t.countAnswer(n);
        assertFalse(t.answersReached(), "3 answers of the new list, 0 of the previous one's 3");
        assertFalse(t.reached(), "answers are not grants");
        for (int n : new int[] {5, 6}) t.countAnswer(n);
        assertFalse(t.answersReached(), "2 of the previous list's 3");
        t.countAnswer(4);
        assertTrue(t.answersReached());
        QuorumRule.Tally small = QuorumRule.of(5, 3).tally(new int[] {2, 4}, false);
        small.countAnswer(2);
        assertFalse(small.answersReached());
        small.countAnswer(4);
        assertTrue(small.answersReached(), "two targets: both answers are enough, though 3 grants never can be");
        assertTrue(small.impossible());
    }
}
