import React, { useState } from "react";

export interface Props {
  label: string;
  onClick?: () => void;
}

// A button.
export const Button = ({ label, onClick }: Props) => {
  const [n, setN] = useState(0);
  return (
    <button onClick={() => { setN(n + 1); onClick?.(); }}>
      {label} {n}
    </button>
  );
};

export function List<T>({ items }: { items: T[] }) {
  return <ul>{items.map((i, k) => <li key={k}>{String(i)}</li>)}</ul>;
}

export default class Panel extends React.Component<Props> {
  render() {
    return <div className="panel">{this.props.label}</div>;
  }
}
