// Shapes: a syntax fixture.
#include <memory>
#include <string>
#include <vector>

namespace geo {

constexpr double kPi = 3.14159;

/// A shape.
class Shape {
public:
    virtual ~Shape() = default;
    virtual double area() const = 0;
    std::string name() const { return "shape"; }
};

template <typename T>
struct Point {
    T x, y;

    T dot(const Point &o) const {
        return x * o.x + y * o.y;
    }
};

class Circle : public Shape {
public:
    explicit Circle(double r) : r_(r) {}
    double area() const override;

    struct Style {
        int stroke;
        int width() const { return stroke * 2; }
    };

private:
    double r_;
};

double Circle::area() const {
    return kPi * r_ * r_;
}

template <typename T>
T largest(const std::vector<T> &xs) {
    T best = xs.front();
    for (const auto &x : xs) {
        if (x > best) best = x;
    }
    return best;
}

}  // namespace geo

enum class Unit { Meter, Foot };

int main() {
    auto c = std::make_unique<geo::Circle>(2.0);
    return c->area() > 0 ? 0 : 1;
}
