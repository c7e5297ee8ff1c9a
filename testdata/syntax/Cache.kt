package shop.cache

import java.time.Duration

const val DEFAULT_TTL = 60
private val log = Logger("cache")

typealias Key = String

/** A cached value with its expiry. */
data class Entry<V>(val value: V, val expires: Long)

interface Store<V> {
    fun get(key: Key): V?
    fun put(key: Key, value: V)
}

enum class Policy { LRU, FIFO }

@Suppress("unused")
class Cache<V>(private val ttl: Duration) : Store<V> {
    private val entries = HashMap<Key, Entry<V>>()
    var hits = 0
        private set

    override fun get(key: Key): V? {
        val e = entries[key] ?: return null
        hits++
        return e.value
    }

    override fun put(key: Key, value: V) {
        entries[key] = Entry(value, now() + ttl.toMillis())
    }

    internal fun size() = entries.size

    private fun now(): Long = System.currentTimeMillis()

    companion object {
        fun <V> empty(): Cache<V> = Cache(Duration.ZERO)
    }
}

object Registry {
    fun register(name: String) {
        println(name)
    }
}

fun Cache<*>.describe(): String {
    return "cache with $hits hits"
}

private fun helper() = 1
