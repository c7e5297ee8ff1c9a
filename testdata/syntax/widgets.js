#!/usr/bin/env node
// Widgets: a syntax fixture.
'use strict';

const path = require('path');

const DEFAULT_SIZE = 10;

/**
 * Renders a widget.
 */
function render(widget) {
  return `<div>${widget.name}</div>`;
}

const sum = (a, b) => a + b;

const format = function (x) {
  return String(x);
};

class Widget {
  constructor(name) {
    this.name = name;
  }

  // Draws the widget.
  draw(ctx) {
    const scale = (v) => v * 2;
    ctx.fill(scale(this.size));
  }

  static create(name) {
    return new Widget(name);
  }

  *children() {
    yield* [];
  }
}

async function* walk(dir) {
  yield path.join(dir, 'a');
}

module.exports = { render, sum, Widget };

export default class extends Widget {
  draw() {
    return null;
  }
}
