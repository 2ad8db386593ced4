package dev.redlock.kotlin

import dev.redlock.Redlock
import dev.redlock.testing.PublicTypes
import java.time.Duration
import kotlin.coroutines.Continuation
import kotlin.jvm.functions.Function2
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Test

/** The public surface of `dev.redlock.kotlin` is a contract: one file of extension functions, one function. */
class KotlinPublicApiTest {
    @Test
    fun oneExtensionFunctionIsPublic() {
        val facade = Class.forName("dev.redlock.kotlin.RedlockCoroutinesKt")
        assertEquals(setOf("RedlockCoroutinesKt"), PublicTypes.`in`(facade, "dev.redlock.kotlin"))
        val publicMethods = facade.declaredMethods.filter { java.lang.reflect.Modifier.isPublic(it.modifiers) && !it.isSynthetic }
        assertEquals(listOf("withLockSuspending"), publicMethods.map { it.name })
        // what a Java caller sees: (receiver, resource, ttl, block, continuation) -> Object
        assertEquals(listOf(Redlock::class.java, String::class.java, Duration::class.java, Function2::class.java,
                Continuation::class.java), publicMethods.single().parameterTypes.toList())
    }
}
