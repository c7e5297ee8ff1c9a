#include <Widget>
// Widget in C++

namespace shapes {
class Widget : public Base {
public:
    Widget();
    int Widget;
    void draw(Widget &w);
};

Widget::Widget() {}

void Widget::draw(Widget &w) {
    w.Widget = 1;
    shapes::Widget x;
    auto s = "Widget";
    Widget();
}
}
