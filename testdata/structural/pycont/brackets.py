# Bracket pairs, written across lines with backslash continuations.
PAIRS = []


def register():
    for opening, closing, name in \
            ('{', '}', 'brace'), \
            ('[', ']', 'bracket'), \
            ('(', ')', 'paren'):
        PAIRS.append((opening, closing, name))
    total = len(PAIRS) + \
        len(PAIRS)
    return total


def matches(text):
    if text and \
            text[0] in '{[(':
        return True
    return False
