package dev.redlock.sim;

import org.luaj.vm2.LuaString;

/** Redis's glob matching ({@code stringmatchlen}): {@code * ? [abc] [^a-z] \x}, case-sensitive. */
final class Glob {
    private Glob() {}

    static boolean matches(LuaString pattern, LuaString s) {
        return match(pattern.m_bytes, pattern.m_offset, pattern.m_offset + pattern.m_length, s.m_bytes, s.m_offset, s.m_offset + s.m_length);
    }

    private static boolean match(byte[] p, int pi, int pe, byte[] s, int si, int se) {
        while (pi < pe) {
            byte c = p[pi];
            switch (c) {
                case '*' -> {
                    while (pi + 1 < pe && p[pi + 1] == '*') pi++;
                    if (pi + 1 == pe) return true;
                    for (int k = si; k <= se; k++) if (match(p, pi + 1, pe, s, k, se)) return true;
                    return false;
                }
                case '?' -> {
                    if (si >= se) return false;
                    si++;
                }
                case '[' -> {
                    if (si >= se) return false;
                    pi++;
                    boolean not = pi < pe && p[pi] == '^';
                    if (not) pi++;
                    boolean found = false;
                    while (pi < pe && p[pi] != ']') {
                        if (p[pi] == '\\' && pi + 1 < pe) {
                            pi++;
                            if (p[pi] == s[si]) found = true;
                        } else if (pi + 2 < pe && p[pi + 1] == '-') {
                            int lo = p[pi] & 0xff, hi = p[pi + 2] & 0xff, x = s[si] & 0xff;
                            if (lo > hi) {
                                int t = lo;
                                lo = hi;
                                hi = t;
                            }
                            if (x >= lo && x <= hi) found = true;
                            pi += 2;
                        } else if (p[pi] == s[si]) {
                            found = true;
                        }
                        pi++;
                    }
                    if (found == not) return false;
                    si++;
                }
                case '\\' -> {
                    if (pi + 1 < pe) pi++;
                    if (si >= se || p[pi] != s[si]) return false;
                    si++;
                }
                default -> {
                    if (si >= se || c != s[si]) return false;
                    si++;
                }
            }
            pi++;
        }
        return si == se;
    }
}
