/* A minimal DOM for running the replay page's scripts under node (tests/generic/test_html.py):
 * elements keep attributes, children and textContent; innerHTML is a trap. Reads the page's
 * JSON from SUNBOT_DATA, runs the scripts given on argv (page.js, generic.js), calls
 * SB.start(), and prints the board as JSON lines of its text elements. */
"use strict";
var fs = require("fs");
function El(tag) {
  this.tagName = tag.toUpperCase(); this.attrs = {}; this.children = []; this.textContent = "";
  var self = this;
  this.classList = { add: function (c) { self.attrs["class"] = ((self.attrs["class"] || "") + " " + c).trim(); } };
  this.style = {};
}
El.prototype.setAttribute = function (k, v) { this.attrs[k] = String(v); };
El.prototype.getAttribute = function (k) { return this.attrs[k] === undefined ? null : this.attrs[k]; };
El.prototype.appendChild = function (c) { this.children.push(c); return c; };
El.prototype.removeChild = function (c) { this.children.splice(this.children.indexOf(c), 1); };
Object.defineProperty(El.prototype, "firstChild", { get: function () { return this.children[0] || null; } });
Object.defineProperty(El.prototype, "innerHTML", { set: function () { throw new Error("innerHTML used"); } });
El.prototype.addEventListener = function () {};
El.prototype.getBoundingClientRect = function () { return { left: 0, width: 100 }; };
El.prototype.querySelectorAll = function (sel) {
  var out = [];
  (function walk(e) { e.children.forEach(function (c) { if (c.attrs["data-field"] !== undefined) out.push(c); walk(c); }); })(this);
  return out;
};
var byId = {};
var data = new El("script"); data.textContent = process.env.SUNBOT_DATA; byId["sunbot-data"] = data;
global.window = global;
global.document = {
  getElementById: function (id) { return byId[id] || (byId[id] = new El("div")); },
  createElementNS: function (ns, tag) { return new El(tag); },
  createElement: function (tag) { return new El(tag); },
  addEventListener: function () {},
  body: new El("body"),
};
global.location = { hash: "#step=" + (process.env.SUNBOT_STEP || "0") };
global.history = { replaceState: function () {} };
process.argv.slice(2).forEach(function (f) { eval.call(global, fs.readFileSync(f, "utf8")); });
SB.start();
(function walk(e, depth) {
  e.children.forEach(function (c) {
    if (c.tagName === "TEXT") console.log(JSON.stringify({ text: c.textContent, cls: e.attrs["class"] || "" }));
    walk(c, depth + 1);
  });
})(document.getElementById("board"), 0);
