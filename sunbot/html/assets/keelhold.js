/* Keelhold board: the hull with seven hatches (lever arms, shut, jammed, safe, listing),
 * crates by cargo colour with their weight, the trim gauge against the tolerance, the queue. */
(function () {
  "use strict";
  var el = SB.el;
  var CARGO = ["#1f9bd1", "#c2409b", "#e0a800", "#2f9e44", "#5b5bd6", "#e8590c", "#7a8599"];
  var HX = 40, HW = 84, GAP = 12, SLOT = 30, TOPY = 96;

  function crate(g, c, x, y, w, h, field) {
    var ballast = c[0] === null;
    var rush = c[2] !== null;
    var grp = el(g, "g", { "data-field": field });
    el(grp, "rect", { x: x, y: y, width: w, height: h, rx: 4,
      fill: ballast ? "#98a2b3" : CARGO[c[0] % CARGO.length],
      stroke: rush ? "#d92d20" : "#1d2430", "stroke-width": rush ? 2.5 : 0.8,
      "stroke-dasharray": rush ? "4 2" : null });
    var name = ballast ? "ballast " + c[1] : String.fromCharCode(65 + c[0]) + c[1];
    if (rush) name += c[2] >= 0 ? " !" + c[2] : " !";
    el(grp, "text", { x: x + w / 2, y: y + h / 2 + 5, "text-anchor": "middle", "font-size": ballast ? 11 : 14,
      "font-weight": 700, fill: "#fff", "class": "mono" }, name);
    el(grp, "title", {}, ballast ? "ballast, weight " + c[1] :
      "cargo " + String.fromCharCode(65 + c[0]) + ", weight " + c[1] + (rush ? ", rush crate due turn " + c[2] : ""));
    return grp;
  }

  function gauge(svg, f, y) {
    var x0 = 90, x1 = 560, mid = (x0 + x1) / 2;
    var span = Math.max(2 * f.tolerance, Math.abs(f.trim), 1);
    var px = function (v) { return mid + (v / span) * (x1 - mid); };
    var g = el(svg, "g", { "data-field": "trim params.tolerance params.wind listing" });
    el(g, "text", { x: 20, y: y + 5, "font-size": 13, "font-weight": 600 }, "trim");
    el(g, "rect", { x: x0, y: y - 7, width: x1 - x0, height: 14, fill: "#fde2e1", rx: 3 });
    el(g, "rect", { x: px(-f.tolerance), y: y - 7, width: px(f.tolerance) - px(-f.tolerance), height: 14,
      fill: "#c6f0d8" });
    el(g, "line", { x1: mid, y1: y - 10, x2: mid, y2: y + 10, stroke: "#667085" });
    [-f.tolerance, f.tolerance].forEach(function (v) {
      el(g, "text", { x: px(v), y: y + 24, "text-anchor": "middle", "font-size": 11 }, (v > 0 ? "+" : "") + v);
    });
    var listing = Math.abs(f.trim) > f.tolerance;
    el(g, "path", { d: "M" + px(f.trim) + " " + (y + 8) + " l-7 -18 h14 z",
      fill: listing ? "#d92d20" : "#12805c" });
    el(g, "text", { x: x1 + 8, y: y + 5, "font-size": 13, "font-weight": 700,
      fill: listing ? "#d92d20" : "#12805c" },
      (f.trim > 0 ? "+" : "") + f.trim + " / \u00b1" + f.tolerance + (listing ? " LISTING" : " level"));
    el(g, "text", { x: x0, y: y + 24, "font-size": 11, fill: "#667085" },
      "wind " + (f.wind > 0 ? "+" : "") + f.wind);
  }

  SB.games.keelhold = {
    width: 760,
    height: 470,
    draw: function (svg, f) {
      var head = "voyage " + f.voyage + " (M " + (f.voyage + 3) + ") \u00b7 turn " + f.turn +
        " \u00b7 lots " + f.lots + "/" + f.quota + " \u00b7 chain " + f.chain + " \u00b7 " + f.phase +
        (f.cause ? " (" + f.cause + ")" : "");
      el(svg, "text", { x: 20, y: 26, "font-size": 16, "font-weight": 700, "data-field": "voyage turn lotsShipped chain phase" }, head);
      if (f.conditions && f.conditions.length) {
        el(svg, "text", { x: 20, y: 46, "font-size": 12, fill: "#667085" }, "conditions: " + f.conditions.join(", "));
      }
      var tilt = Math.max(-6, Math.min(6, (f.trim / Math.max(1, f.tolerance)) * 3));
      var bottom = TOPY + f.capacity * SLOT;
      var hull = el(svg, "g", { transform: "rotate(" + tilt.toFixed(2) + " 380 " + bottom + ")" });
      var right = HX + 7 * (HW + GAP) - GAP;
      el(hull, "path", { d: "M" + (HX - 22) + " " + (TOPY - 6) + " H" + (right + 22) + " L" + (right - 10) + " " +
        (bottom + 34) + " H" + (HX + 10) + " Z", fill: "#e7dccb", stroke: "#7a5b3a", "stroke-width": 2,
        "data-field": "hold" });
      for (var b = 0; b < 7; b++) {
        var x = HX + b * (HW + GAP);
        var open = f.open.indexOf(b) >= 0, jam = f.jam[b] > 0, safe = f.safe.indexOf(b) >= 0;
        var g = el(hull, "g", { "data-field": "hold[" + b + "] jammedUntil[" + b + "] safeBays listingBays" });
        el(g, "rect", { x: x, y: TOPY, width: HW, height: f.capacity * SLOT + 4, fill: open ? "#fffaf2" : "#d0d5dd",
          stroke: "#7a5b3a", "stroke-width": 1.2 });
        el(g, "text", { x: x + HW / 2, y: TOPY - 26, "text-anchor": "middle", "font-size": 13, "font-weight": 700 },
          "H" + (b + 1) + (f.arms[b] === 0 ? " keel" : ""));
        el(g, "text", { x: x + HW / 2, y: TOPY - 12, "text-anchor": "middle", "font-size": 11, fill: "#667085" },
          "arm " + (f.arms[b] > 0 ? "+" : "") + f.arms[b]);
        f.hold[b].forEach(function (c, row) {
          crate(g, c, x + 5, TOPY + (f.capacity - 1 - row) * SLOT + 4, HW - 10, SLOT - 4, "hold[" + b + "][" + row + "]");
        });
        var tag = !open ? ["shut", "#667085"] : jam ? ["jammed " + f.jam[b], "#d92d20"] :
          f.listingBays.indexOf(b) >= 0 ? ["lists", "#f79009"] : safe ? ["safe \u2713", "#12805c"] : ["unsafe", "#98a2b3"];
        el(g, "text", { x: x + HW / 2, y: bottom + 22, "text-anchor": "middle", "font-size": 12,
          "font-weight": 600, fill: tag[1], "class": "hatch-tag" }, tag[0]);
        if (jam) {
          el(g, "path", { d: "M" + x + " " + TOPY + " l" + HW + " " + (f.capacity * SLOT + 4) + " M" + (x + HW) +
            " " + TOPY + " l" + -HW + " " + (f.capacity * SLOT + 4), stroke: "#d92d20", "stroke-width": 2, opacity: 0.6 });
        }
      }
      gauge(svg, f, bottom + 62);
      var qy = bottom + 100;
      el(svg, "text", { x: 20, y: qy + 20, "font-size": 13, "font-weight": 600 }, "queue");
      var qg = el(svg, "g", { "data-field": "queue" });
      f.queue.forEach(function (c, i) {
        crate(qg, c, 90 + i * 88, qy, 78, 28, "queue[" + i + "]");
        if (i === 0) el(qg, "text", { x: 129, y: qy + 44, "text-anchor": "middle", "font-size": 11, fill: "#667085" }, "in hand");
      });
      if (f.phase === "port" && f.next) {
        var n = f.next;
        el(svg, "text", { x: 90 + Math.max(1, f.queue.length) * 88 + 10, y: qy + 12, "font-size": 12, "data-field": "castOffSafe next" },
          "at port \u00b7 cast-off safe: " + f.castOffSafe);
        el(svg, "text", { x: 90 + Math.max(1, f.queue.length) * 88 + 10, y: qy + 30, "font-size": 12, fill: "#667085" },
          "next voyage: tolerance " + n.tolerance + ", quota " + n.quota + ", wind " + n.wind +
          (n.conditions && n.conditions.length ? ", " + n.conditions.join(", ") : ""));
      }
    },
  };
})();
