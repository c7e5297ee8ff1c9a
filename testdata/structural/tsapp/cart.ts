import { EventEmitter } from "events";

export interface LineItem {
  sku: string;
  quantity: number;
  unitPrice: number;
  discount?: number;
}

export type CartEvent = "added" | "removed" | "cleared";

export class Cart extends EventEmitter {
  private items: Map<string, LineItem> = new Map();
  private readonly currency: string;

  constructor(currency = "EUR") {
    super();
    this.currency = currency;
  }

  add(item: LineItem): void {
    const prev = this.items.get(item.sku);
    if (prev) {
      prev.quantity += item.quantity;
    } else {
      this.items.set(item.sku, { ...item });
    }
    this.emit("added", item.sku);
  }

  remove(sku: string): boolean {
    const had = this.items.delete(sku);
    if (had) {
      this.emit("removed", sku);
    }
    return had;
  }

  findItem(sku: string): LineItem | undefined {
    return this.items.get(sku);
  }

  total(): number {
    let sum = 0;
    for (const item of this.items.values()) {
      const price = item.unitPrice * item.quantity;
      sum += item.discount ? price * (1 - item.discount) : price;
    }
    return Math.round(sum * 100) / 100;
  }

  format(): string {
    return new Intl.NumberFormat("en", { style: "currency", currency: this.currency }).format(this.total());
  }

  clear(): void {
    this.items.clear();
    this.emit("cleared");
  }
}

export async function loadCart(url: string, fetcher: typeof fetch = fetch): Promise<Cart> {
  const res = await fetcher(url, { headers: { accept: "application/json" } });
  if (!res.ok) {
    throw new Error(`cannot load cart: ${res.status}`);
  }
  const body = (await res.json()) as { currency: string; items: LineItem[] };
  const cart = new Cart(body.currency);
  body.items.forEach((it) => cart.add(it));
  return cart;
}

export function summarize(cart: Cart, verbose = false): string {
  const lines = [cart.format()];
  if (verbose) {
    console.log("summarizing", cart.total());
  }
  return lines.join("\n");
}
