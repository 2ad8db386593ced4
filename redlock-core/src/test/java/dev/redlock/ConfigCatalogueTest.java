package dev.redlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.redlock.internal.ConfigOption;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The option catalogue ({@link ConfigOption}) is the one definition of every option: the README's table, the class
 * javadoc's table, the builder, the getters, {@code toString} and the properties must all agree with it, so an option
 * added in one place only fails here.
 */
class ConfigCatalogueTest {
    /** The repository's root: these tests also run from compat/netty41, which compiles the core's sources. */
    private static final Path ROOT = root(Path.of(System.getProperty("user.dir")).toAbsolutePath());
    private static final String CONFIG_SOURCE = "redlock-core/src/main/java/dev/redlock/RedlockConfig.java";

    private static Path root(Path dir) {
        for (Path d = dir; d != null; d = d.getParent()) {
            if (Files.isRegularFile(d.resolve(CONFIG_SOURCE)) && Files.isRegularFile(d.resolve("README.md"))) return d;
        }
        throw new IllegalStateException("no repository root (with " + CONFIG_SOURCE + ") above " + dir);
    }

    @Test
    void theReadmeTableIsTheCatalogue() throws IOException {
        Path readme = ROOT.resolve("README.md");
        List<String> rows = new ArrayList<>();
        boolean inSection = false;
        for (String line : Files.readAllLines(readme)) {
            if (line.startsWith("## ")) inSection = line.equals("## Configuration");
            if (inSection && line.startsWith("| `")) rows.add(line);
        }
        Map<String, String[]> table = new LinkedHashMap<>();
        for (String row : rows) {
            String[] cells = row.substring(1, row.length() - 1).split(" \\| ");
            for (String name : names(cells[0])) table.put(name, cells);
        }
        assertAgrees("README.md", table);
        String text = Files.readString(readme);
        for (ConfigOption o : ConfigOption.values()) {
            assertTrue(text.contains("`" + o.property() + "`"), "README.md lists the property key " + o.property());
        }
    }

    @Test
    void theJavadocTableIsTheCatalogue() throws IOException {
        String source = Files.readString(ROOT.resolve(CONFIG_SOURCE));
        String doc = source.substring(source.indexOf("<table>"), source.indexOf("</table>"))
                .replaceAll("\n \\*\\s+", " ");
        Matcher m = Pattern.compile("<tr><td>(.*?)</td><td>(.*?)</td><td>(.*?)</td></tr>").matcher(doc);
        Map<String, String[]> table = new LinkedHashMap<>();
        while (m.find()) {
            for (String name : names(m.group(1))) table.put(name, new String[] {m.group(1), m.group(2), m.group(3)});
        }
        assertAgrees("RedlockConfig's javadoc", table);
    }

    /** Each option has a builder setter, a getter, a properties key, a {@code toString} entry (secrets: hidden). */
    @Test
    void everyOptionIsWired(@TempDir Path dir) throws Exception {
        Map<ConfigOption, String> sample = samples(dir);
        for (ConfigOption o : ConfigOption.values()) {
            assertTrue(sample.containsKey(o), "no sample value for " + o.key() + ": add one to this test");
            String setter = o.documentedWith().key();
            assertTrue(Arrays.stream(RedlockConfig.Builder.class.getMethods()).anyMatch(x -> x.getName().equals(setter)),
                    "RedlockConfig.Builder has no public setter " + setter + " for " + o.key());
            assertTrue(Arrays.stream(RedlockConfig.class.getDeclaredMethods())
                    .anyMatch(x -> x.getName().equals(o.key()) && x.getParameterCount() == 0), "no getter " + o.key());
        }
        Properties p = new Properties();
        sample.forEach((o, v) -> p.setProperty(o.property(), v));
        RedlockConfig c = RedlockConfig.fromProperties(p);
        String shown = c.toString();
        for (ConfigOption o : ConfigOption.values()) {
            if (o.secret()) {
                assertFalse(shown.contains(sample.get(o)), o.key() + " must not show in toString: " + shown);
            } else {
                assertTrue(shown.contains(", " + o.key() + "=") || shown.contains("{" + o.key() + "="),
                        o.key() + " missing from toString: " + shown);
                String got = String.valueOf(unwrap(getter(o).invoke(c)));
                String want = sample.get(o).replace(",", ", ");
                assertTrue(got.contains(want) || got.equals(normalDuration(sample.get(o))) || got.equalsIgnoreCase(want),
                        o.property() + "=" + sample.get(o) + " did not reach the config: " + got);
            }
        }
    }

    @Test
    void theBuildersDefaultsAreTheCatalogues() throws Exception {
        RedlockConfig c = RedlockConfig.builder().nodes("redis://127.0.0.1:7001").build();
        for (ConfigOption o : ConfigOption.values()) {
            if (o.defaultValue() == null || o.secret()) continue;
            assertEquals(o.defaultValue(), unwrap(getter(o).invoke(c)), o.key());
        }
    }

    @Test
    void unknownKeysNameEveryCatalogueKey() {
        Properties p = new Properties();
        p.setProperty("redlock.nodes", "redis://127.0.0.1:7001");
        p.setProperty("redlock.nodeTimeuot", "1s");
        String message = assertThrowsIae(p);
        for (String key : ConfigOption.keys()) assertTrue(message.contains(key), key + " in " + message);
    }

    private static String assertThrowsIae(Properties p) {
        try {
            RedlockConfig.fromProperties(p);
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
        return fail("accepted an unknown key");
    }

    private static void assertAgrees(String where, Map<String, String[]> table) {
        assertEquals(ConfigOption.keys().stream().sorted().toList(), table.keySet().stream().sorted().toList(),
                where + "'s option table must list exactly the catalogue's options");
        for (ConfigOption o : ConfigOption.values()) {
            String[] row = table.get(o.key());
            if (o.documentedWith() != o) continue; // a password is described in its store's row
            assertEquals(normal(o.defaultText()), normal(row[1]), where + ": default of " + o.key());
            assertTrue(normal(row[2]).startsWith(normal(o.allowed())),
                    where + ": allowed range of " + o.key() + " is '" + row[2] + "', the catalogue says '" + o.allowed() + "'");
        }
    }

    /** {@code `tlsTrustStore` (+ password)} and {@code tlsTrustStore, tlsTrustStorePassword} name two options. */
    private static List<String> names(String cell) {
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile("[a-zA-Z]+").matcher(cell.replace("(+ password)", ""));
        while (m.find()) out.add(m.group());
        if (cell.contains("(+ password)")) out.add(out.get(0) + "Password");
        return out;
    }

    private static String normal(String s) {
        return s.replace("{@code ", "").replace("}", "").replace("`", "").replace("&lt;", "<").replace("&gt;", ">")
                .replace("&plusmn;", "±").replaceAll("\\s+", "");
    }

    private static Method getter(ConfigOption o) throws NoSuchMethodException {
        Method m = RedlockConfig.class.getDeclaredMethod(o.key());
        if (!Modifier.isPublic(m.getModifiers())) m.setAccessible(true);
        return m;
    }

    private static Object unwrap(Object v) {
        return v instanceof Optional<?> opt ? opt.orElse(null) : v;
    }

    private static String normalDuration(String v) {
        return v.startsWith("PT") ? v : "PT" + v.toUpperCase().replace("MS", "");
    }

    private static Map<ConfigOption, String> samples(Path dir) throws Exception {
        Map<ConfigOption, String> s = new EnumMap<>(ConfigOption.class);
        s.put(ConfigOption.NODES, "redis://127.0.0.1:7001,redis://127.0.0.1:7002,redis://127.0.0.1:7003");
        s.put(ConfigOption.QUORUM, "3");
        s.put(ConfigOption.DRIFT_FACTOR, "0.02");
        s.put(ConfigOption.FIXED_DRIFT, "PT0.005S");
        s.put(ConfigOption.NODE_TIMEOUT, "PT0.25S");
        s.put(ConfigOption.RETRY_COUNT, "7");
        s.put(ConfigOption.RETRY_DELAY, "PT0.3S");
        s.put(ConfigOption.RETRY_JITTER, "PT0.05S");
        s.put(ConfigOption.KEY_PREFIX, "app:");
        s.put(ConfigOption.FENCING, "false");
        s.put(ConfigOption.RESTART_QUARANTINE, "PT2M");
        s.put(ConfigOption.PREFLIGHT, "WARN");
        s.put(ConfigOption.PREVIOUS_NODES, "redis://127.0.0.1:7004,redis://127.0.0.1:7005");
        s.put(ConfigOption.PREVIOUS_QUORUM, "2");
        s.put(ConfigOption.MAX_HOLD, "PT10M");
        s.put(ConfigOption.TLS_TRUST_STORE, store(dir.resolve("trust.p12"), "trust-secret").toString());
        s.put(ConfigOption.TLS_TRUST_STORE_PASSWORD, "trust-secret");
        s.put(ConfigOption.TLS_KEY_STORE, store(dir.resolve("key.p12"), "key-secret").toString());
        s.put(ConfigOption.TLS_KEY_STORE_PASSWORD, "key-secret");
        return s;
    }

    private static Path store(Path file, String password) throws Exception {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        ks.load(null, null);
        try (OutputStream out = Files.newOutputStream(file)) {
            ks.store(out, password.toCharArray());
        }
        return file;
    }
}
