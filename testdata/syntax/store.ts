// A typed event store: a syntax fixture.
import { EventEmitter } from "events";

export const VERSION = "1.4.0";
const RETRIES = 3;

/** An event in the store. */
export interface StoreEvent<T = unknown> {
  id: string;
  payload: T;
  /** Applies the event. */
  apply(state: State): State;
}

export type State = Record<string, unknown>;

export enum Level {
  Debug,
  Info = "info",
}

/**
 * Clamps n into [lo, hi].
 */
export function clamp(n: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, n));
}

export const debounce = <F extends (...args: any[]) => void>(
  f: F,
  ms: number,
): F => {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return ((...args: any[]) => {
    clearTimeout(timer);
    timer = setTimeout(() => f(...args), ms);
  }) as F;
};

const sleep = async (ms: number) => new Promise((r) => setTimeout(r, ms));

function sealed(constructor: Function) {
  Object.seal(constructor);
}

@sealed
export class Store<T extends StoreEvent> extends EventEmitter {
  private events: T[] = [];
  static readonly instances = new Set<Store<any>>();

  constructor(private readonly name: string) {
    super();
    Store.instances.add(this);
  }

  // Adds an event.
  append(ev: T): void {
    this.events.push(ev);
    this.emit("append", ev);
  }

  onAppend = (ev: T) => {
    console.log(this.name, ev.id);
  };

  get size(): number {
    return this.events.length;
  }

  async replay(into: State): Promise<State> {
    let s = into;
    for (const ev of this.events) {
      s = ev.apply(s);
      await sleep(0);
    }
    return s;
  }
}

export abstract class Projection<S> {
  abstract project(ev: StoreEvent): S;

  describe(): string {
    return `projection of ${RETRIES}`;
  }
}

export namespace Codec {
  export function encode(ev: StoreEvent): string {
    return JSON.stringify(ev);
  }
}

export default function createStore(name: string): Store<StoreEvent> {
  return new Store(name);
}
