package shapes;

import shapes.parts.Widget;

/** Javadoc: a Widget. */
public class Widget extends Base {
    private Widget Widget;

    public Widget(int size) {
        this.Widget = new Widget(size);
    }

    public Widget Widget() {
        // returns the Widget
        return Widget.Widget();
    }

    abstract void Widget(Widget w);

    static String name() {
        return "Widget";
    }
}
