import { readFile } from "fs/promises";
import * as path from "path";

export interface User {
  id: number;
  name: string;
  email?: string;
}

type Handler = (u: User) => Promise<void>;

export class UserService {
  private users: Map<number, User> = new Map();

  constructor(private readonly dir: string) {}

  async load(file: string): Promise<User[]> {
    const text = await readFile(path.join(this.dir, file), "utf8");
    const list = JSON.parse(text) as User[];
    for (const u of list) {
      this.users.set(u.id, u);
    }
    return list;
  }

  find(id: number): User | undefined {
    return this.users.get(id);
  }

  each(h: Handler): void {
    this.users.forEach((u) => h(u));
  }
}

export function greet(u: User): string {
  if (!u.email) {
    console.log("no email for", u.name);
  }
  return `hello ${u.name}`;
}

const svc = new UserService("/tmp");
svc.load("users.json").then((xs) => console.log(xs.length));
console.log(greet({ id: 1, name: "a" }));
let n: number = 0;
n = n + 1;
export default svc;
