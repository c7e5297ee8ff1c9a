/* Widget types */
import type { Widget } from "./widget";

export interface Maker {
  Widget(): Widget;
  size: Widget;
}

export class Box implements Maker {
  Widget(): Widget {
    return this.size;
  }
  size: Widget = new Widget();
}

declare function Widget(n: number): Widget;

let w: Widget = Widget(2);
w.Widget();
const s = "Widget";
