package dev.redlock.testing;

import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/** The public types of one package, read from the class files next to an anchor class (for the public-API tests). */
public final class PublicTypes {
    private PublicTypes() {}

    /**
     * Binary names relative to {@code pkg} ({@code Outer$Inner} for nested types) of the public, non-anonymous
     * types whose class files lie in {@code pkg} in the same jar or folder as {@code anchor}.
     */
    public static Set<String> in(Class<?> anchor, String pkg) throws Exception {
        Path dir = Path.of(anchor.getProtectionDomain().getCodeSource().getLocation().toURI()).resolve(pkg.replace('.', '/'));
        Set<String> out = new TreeSet<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".class")).toList()) {
                String name = f.getFileName().toString().replace(".class", "");
                if (name.equals("package-info")) continue;
                Class<?> c = Class.forName(pkg + "." + name, false, anchor.getClassLoader());
                if (Modifier.isPublic(c.getModifiers()) && !c.isAnonymousClass() && !c.isSynthetic()) out.add(name);
            }
        }
        return out;
    }
}
