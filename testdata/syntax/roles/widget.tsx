import Widget from "./Widget";

// renders a Widget
export function Panel(props: { Widget: string }) {
  const Widget2 = Widget;
  return <Widget title="Widget">{props.Widget}</Widget>;
}

function Widget() {
  return null;
}
