import os
import sys
from collections import defaultdict


def load(path, mode="r"):
    with open(path, mode) as f:
        return f.read()


def parse(text):
    result = defaultdict(list)
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        key, _, value = line.partition("=")
        result[key.strip()].append(value.strip())
    return result


class Config:
    def __init__(self, path):
        self.path = path
        self.data = parse(load(path))

    def get(self, key, default=None):
        values = self.data.get(key)
        if values is None:
            return default
        return values[-1]

    def __repr__(self):
        return "Config(%r)" % self.path


def main(argv):
    if len(argv) < 2:
        print("usage: app CONFIG", file=sys.stderr)
        return 2
    cfg = Config(argv[1])
    print(cfg.get("name", "unknown"))
    print(cfg.get("name"))
    x = [i * i for i in range(10) if i % 2 == 0]
    y = {k: v for k, v in cfg.data.items()}
    try:
        os.remove(argv[1] + ".bak")
    except OSError as e:
        print(e)
    finally:
        pass
    assert x == x
    return 0 if x else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
