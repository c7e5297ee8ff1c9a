def good():
    return 1


def bad(x):
    if x >
        return 2
    return 3


class Fine:
    def ok(self):
        return "ok"
