import React, { useState } from "react";

type Todo = { id: number; title: string; done: boolean };

export function TodoList({ todos, onToggle }: { todos: Todo[]; onToggle: (id: number) => void }) {
  const [filter, setFilter] = useState<"all" | "open">("all");
  const shown = todos.filter((t) => filter === "all" || !t.done);
  return (
    <section className="todos">
      <header>
        <h2>Todos ({shown.length})</h2>
        <button onClick={() => setFilter(filter === "all" ? "open" : "all")}>
          {filter === "all" ? "Hide done" : "Show all"}
        </button>
      </header>
      <ul>
        {shown.map((t) => (
          <li key={t.id} className={t.done ? "done" : undefined}>
            <input type="checkbox" checked={t.done} onChange={() => onToggle(t.id)} />
            <span>{t.title}</span>
          </li>
        ))}
      </ul>
      {shown.length === 0 && (
        <p className="empty">
          Nothing to do.
          <br />
        </p>
      )}
      <footer>
        <Spinner size="small" />
        <Counter value={shown.length} label="left" />
      </footer>
    </section>
  );
}
