"""Module docstring naming Widget."""
from shapes import Widget
import widgets.Widget as W


class Widget(Base):
    # a comment about Widget
    size: int = 0

    def Widget(self, Widget: "Widget") -> Widget:
        self.Widget = Widget
        return Widget(self.Widget)


def make(x: Widget) -> None:
    w = Widget()
    w.Widget()
    print(f"{Widget} and Widget")
    Widget = 3
