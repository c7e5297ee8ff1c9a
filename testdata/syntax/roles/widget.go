// Package shapes uses Widget in every role.
package shapes

import (
	Widget "example.com/widget"
	"fmt"
)

// Widget is a thing with a size.
type Widget struct {
	Size   int
	Widget string
}

type Maker interface {
	Widget() Widget
}

const Default = "Widget"

func (b *Box) Widget() Widget {
	var w Widget
	w.Widget = "x"
	return w
}

func NewWidget(Widget int) *Widget {
	b := &Box{}
	v := b.Widget()
	fmt.Println(v.Widget, Widget)
	return &Widget{Size: Widget, Widget: `raw Widget`}
}
