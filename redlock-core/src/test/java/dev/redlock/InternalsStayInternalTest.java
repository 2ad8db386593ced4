package dev.redlock;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.redlock.testing.PublicTypes;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code dev.redlock.internal} is public Java but not API: no public or protected member of an API package's public
 * types names an internal type, so an application never needs one (and the javadoc can leave the package out).
 */
class InternalsStayInternalTest {
    private static final List<String> API_PACKAGES = List.of("dev.redlock", "dev.redlock.election",
            "dev.redlock.fencing", "dev.redlock.spi");

    @Test
    void noApiSignatureNamesAnInternalType() throws Exception {
        List<String> leaks = new ArrayList<>();
        for (String pkg : API_PACKAGES) {
            for (String name : PublicTypes.in(Redlock.class, pkg)) {
                Class<?> c = Class.forName(pkg + "." + name, false, Redlock.class.getClassLoader());
                for (Method m : c.getDeclaredMethods()) {
                    if (!exposed(m.getModifiers()) || m.isSynthetic()) continue;
                    check(c, m, m.getGenericReturnType(), leaks);
                    params(c, m, leaks);
                }
                for (Constructor<?> k : c.getDeclaredConstructors()) {
                    if (exposed(k.getModifiers())) params(c, k, leaks);
                }
                for (Field f : c.getDeclaredFields()) {
                    if (exposed(f.getModifiers())) check(c, f, f.getGenericType(), leaks);
                }
                for (Type t : c.getGenericInterfaces()) check(c, c, t, leaks);
                if (c.getGenericSuperclass() != null) check(c, c, c.getGenericSuperclass(), leaks);
            }
        }
        assertEquals(List.of(), leaks, "API members that expose dev.redlock.internal");
    }

    private static boolean exposed(int modifiers) {
        return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
    }

    private static void params(Class<?> owner, Executable e, List<String> leaks) {
        for (Type t : e.getGenericParameterTypes()) check(owner, e, t, leaks);
        for (Type t : e.getGenericExceptionTypes()) check(owner, e, t, leaks);
    }

    private static void check(Class<?> owner, Object member, Type type, List<String> leaks) {
        if (type.getTypeName().contains("dev.redlock.internal.")) {
            leaks.add(owner.getSimpleName() + ": " + member + " uses " + type.getTypeName());
        }
    }
}
