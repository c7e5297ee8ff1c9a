package app.stats

import app.api.StatsApi

class UserStats(private val api: StatsApi) {
    fun countsFor(userId: String): Map<String, Int> {
        val user = api.findUser(userId) ?: return emptyMap()
        val counts = api.counts(user.id)
            ?: return emptyMap()
        val total = counts.values.sum()
        return counts + ("total" to total)
    }

    fun topEvent(userId: String): String {
        val events = api.events(userId) ?: return emptyList<String>().joinToString()
        val first = events.firstOrNull() ?: return ""
        return first.name
    }
}
