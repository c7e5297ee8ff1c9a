import logging

log = logging.getLogger(__name__)


def retry(fn, times=3):
    last = None
    for _ in range(times):
        try:
            return fn()
        except Exception as e:
            last = e
            log.warning("retry: %s", e)
    raise last


async def fetch(client, url):
    resp = await client.get(url)
    if resp.status != 200:
        raise RuntimeError(resp.status)
    return await resp.json()


def pairs(xs):
    return [(a, b) for a in xs for b in xs if a != b]


lambda_sum = lambda a, b: a + b
print(lambda_sum(1, 2))
print(pairs([1, 2, 3]))
log.info("done %d", 1)
log.info("done")
