package dev.redlock.testing;

import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/** For the {@code *PublicApiTest}s: the public types of one package, as simple names ({@code Outer$Inner} for nested). */
public final class PublicTypes {
    private PublicTypes() {}

    /** Public, non-anonymous, non-synthetic types compiled into {@code anchor}'s package (its directory only). */
    public static Set<String> inPackageOf(Class<?> anchor) throws Exception {
        String pkg = anchor.getPackageName();
        Path dir = classesRoot(anchor).resolve(pkg.replace('.', '/'));
        Set<String> names = new TreeSet<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                String file = f.getFileName().toString();
                if (!file.endsWith(".class") || file.equals("package-info.class")) continue;
                Class<?> c = Class.forName(pkg + "." + file.substring(0, file.length() - 6), false, anchor.getClassLoader());
                if (!c.isAnonymousClass() && !c.isSynthetic() && Modifier.isPublic(c.getModifiers())) {
                    names.add(c.getName().substring(pkg.length() + 1));
                }
            }
        }
        return names;
    }

    private static Path classesRoot(Class<?> anchor) throws URISyntaxException {
        return Path.of(anchor.getProtectionDomain().getCodeSource().getLocation().toURI());
    }
}
