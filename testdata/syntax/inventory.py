#!/usr/bin/env python3
"""Inventory service: a syntax fixture."""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Generic, TypeVar

T = TypeVar("T")
MAX_ITEMS = 1000
_registry: dict[str, type] = {}


def register(cls):
    """Class decorator that records cls."""
    _registry[cls.__name__] = cls
    return cls


# A cached helper.
@functools.lru_cache(maxsize=None)
def price_with_tax(price: float, rate: float = 0.2) -> float:
    return round(price * (1 + rate), 2)


@register
@dataclass
class Item:
    """One line of stock."""

    name: str
    price: float
    tags: list[str] = field(default_factory=list)

    class Meta:
        ordering = ["name"]

        class Options:
            verbose = True

    @property
    def total(self) -> float:
        return price_with_tax(self.price)

    def tag(self, *names: str) -> None:
        for n in names:
            if n not in self.tags:
                self.tags.append(n)


class Box(Generic[T]):
    def __init__(self, value: T) -> None:
        self.value = value

    # Map the value.
    def map(self, f):
        def apply(v):
            return f(v)

        return Box(apply(self.value))

    @staticmethod
    async def fetch(url: str) -> "Box[str]":
        return Box(url)


async def main(argv: list[str]) -> int:
    box = Box(1)
    squared = box.map(lambda v: v * v)
    print(squared.value)
    return 0


if __name__ == "__main__":
    import asyncio
    import sys

    sys.exit(asyncio.run(main(sys.argv)))
