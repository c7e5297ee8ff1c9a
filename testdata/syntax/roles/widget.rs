//! Crate docs mention Widget.
use crate::shapes::Widget;

/// A Widget.
pub struct Widget {
    widget: u32,
}

pub trait Maker {
    fn Widget(&self) -> Widget;
}

impl Maker for Widget {
    fn Widget(&self) -> Widget {
        let w: Widget = Widget { widget: 1 };
        w.Widget();
        Widget::new();
        println!("Widget");
        w
    }
}

fn use_it(Widget: u32) -> u32 {
    Widget + 1
}

#[cfg(test)]
mod tests {
    #[test]
    fn widget_works() {
        let _ = super::Widget { widget: 2 };
    }
}
