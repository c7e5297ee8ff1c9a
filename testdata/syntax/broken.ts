export function good(): number {
  return 1;
}

export function bad(x: number): number {
  if (x > ) {
    return 2;
  }
  return 3;
}

export const fine = () => "ok";
