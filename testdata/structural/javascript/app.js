const fs = require('fs');
const path = require("path");

function readJSON(file) {
  const text = fs.readFileSync(file, 'utf8');
  return JSON.parse(text);
}

async function load(dir) {
  const files = await fs.promises.readdir(dir);
  const out = [];
  for (const f of files) {
    if (f.endsWith('.json')) {
      out.push(readJSON(path.join(dir, f)));
    }
  }
  return out;
}

class Store {
  constructor(items) {
    this.items = items || [];
  }

  add(item) {
    this.items.push(item);
    console.log('added', item);
  }

  get size() {
    return this.items.length;
  }
}

const square = (x) => x * x;
const add = (a, b) => a + b;
let total = 0;
var legacy = 1;
total += square(3);
console.log(add(1, 2), total);
console.log("done");
if (total == legacy) {
  console.error('same');
} else if (total === 9) {
  console.warn('nine');
}
module.exports = { readJSON, load, Store };
setTimeout(() => { console.log('later'); }, 10);
