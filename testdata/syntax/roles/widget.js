// Widget helpers
import { Widget } from "./widget.js";

export class Widget extends Base {
  Widget = 1;
  Widget() {
    return this.Widget;
  }
}

function Widget(a) {
  return new Widget(a);
}

const w = Widget(1);
w.Widget();
console.log("Widget", `${Widget}`);
const obj = { Widget: w };
