/* Naptuft board: the four needs as bars (the 30 day-bonus and 40 comfort lines marked), the
 * wish with its progress and the streak, and the forecast: the day's three windows and the
 * next day's first, each with its wish and pressures, the current window marked. */
(function () {
  "use strict";
  var el = SB.el;
  var NEEDS = ["food", "joy", "cleanliness", "energy"];
  var CARE = { food: "feed", joy: "play", cleanliness: "brush", energy: "nap" };

  SB.games.naptuft = {
    width: 760,
    height: 470,
    draw: function (svg, f) {
      el(svg, "text", { x: 20, y: 26, "font-size": 16, "font-weight": 700, "data-field": "day moment window phase result cause" },
        "day " + f.day + " \u00b7 moment " + (f.moment + 1) + "/12 \u00b7 window " + (f.window + 1) + "/3 \u00b7 " +
        f.phase + (f.result ? " (" + f.result + ": " + f.cause + ")" : ""));
      var X = 170, W = 440;
      NEEDS.forEach(function (n, i) {
        var y = 52 + i * 44, v = f.needs[i];
        var g = el(svg, "g", { "data-field": "needs." + n, "class": "need" });
        el(g, "text", { x: 20, y: y + 18, "font-size": 14, "font-weight": 600 }, n);
        el(g, "text", { x: 20, y: y + 32, "font-size": 11, fill: "#667085" }, "care: " + CARE[n] + (f.lastCare === CARE[n] ? " (last)" : ""));
        el(g, "rect", { x: X, y: y + 6, width: W, height: 22, fill: "#eaecf0", rx: 3 });
        el(g, "rect", { x: X, y: y + 6, width: (W * Math.max(0, Math.min(100, v))) / 100, height: 22, rx: 3,
          fill: v < 30 ? "#d92d20" : v < 40 ? "#f79009" : "#12805c" });
        [30, 40].forEach(function (m) {
          el(g, "line", { x1: X + (W * m) / 100, y1: y + 2, x2: X + (W * m) / 100, y2: y + 32, stroke: "#1d2430", "stroke-dasharray": "3 2" });
        });
        el(g, "text", { x: X + W + 10, y: y + 23, "font-size": 15, "font-weight": 700, "class": "need-value" }, v);
      });
      el(svg, "text", { x: X, y: 238, "font-size": 10, fill: "#667085" }, "dashed lines: 30 (day bonus) and 40 (comfort)");
      var wy = 272, g = el(svg, "g", { "data-field": "wish wishStreak" });
      el(g, "text", { x: 20, y: wy, "font-size": 14, "font-weight": 600 }, "wish");
      if (!f.wish) {
        el(g, "text", { x: X, y: wy, "font-size": 13, fill: "#667085" }, "none shown (done this window, or a day break)");
      } else {
        f.wish.actions.forEach(function (care, i) {
          var done = i < f.wish.progress, next = i === f.wish.progress;
          el(g, "rect", { x: X + i * 92, y: wy - 16, width: 84, height: 24, rx: 12,
            fill: done ? "#d1fadf" : next ? "#fff4d6" : "#fff", stroke: next ? "#f79009" : "#98a2b3", "stroke-width": next ? 2 : 1 });
          el(g, "text", { x: X + i * 92 + 42, y: wy + 1, "text-anchor": "middle", "font-size": 13,
            "text-decoration": done ? "line-through" : null, "font-weight": next ? 700 : 400 }, care);
        });
        el(g, "text", { x: X + f.wish.actions.length * 92 + 6, y: wy, "font-size": 12, fill: "#667085" },
          f.wish.progress + "/" + f.wish.actions.length + " done");
      }
      if (typeof f.streak === "number") {  // a server may not show the streak
        el(g, "text", { x: X, y: wy + 26, "font-size": 12 }, "streak " + f.streak + " (next wish \u00d7" + Math.min(f.streak + 1, 3) + ")");
      }
      var fy = 330;
      el(svg, "text", { x: 20, y: fy, "font-size": 14, "font-weight": 600 }, "forecast");
      ["window", "wish", "pressure food/joy/clean/energy"].forEach(function (h, i) {
        el(svg, "text", { x: [X, X + 130, X + 340][i], y: fy, "font-size": 11, fill: "#667085" }, h);
      });
      var rows = f.forecast.map(function (w, i) { return ["day " + f.day + " w" + (i + 1), w, "forecast[" + i + "]"]; });
      rows.push(["day " + (f.day + 1) + " w1", f.nextWindow, "nextWindow"]);
      rows.forEach(function (r, i) {
        var y = fy + 24 + i * 24, now = i === f.window && f.phase === "care";
        var rg = el(svg, "g", { "data-field": r[2], opacity: i < f.window && f.phase === "care" ? 0.45 : 1 });
        if (now) el(rg, "rect", { x: X - 8, y: y - 16, width: 560, height: 22, fill: "#fff4d6", rx: 4 });
        el(rg, "text", { x: X, y: y, "font-size": 13, "font-weight": now ? 700 : 400 }, (now ? "\u25b6 " : "") + r[0]);
        el(rg, "text", { x: X + 130, y: y, "font-size": 13 }, r[1][0].join(", "));
        el(rg, "text", { x: X + 340, y: y, "font-size": 13, "class": "mono" }, r[1][1].join(" / "));
      });
    },
  };
})();
