require "Widget"

# A Widget class
class Widget < Base
  def Widget(size)
    @size = Widget.new(size)
    self.Widget
    "Widget"
  end
end

Widget.Widget(1)
x = Widget
