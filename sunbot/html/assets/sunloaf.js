/* Sunloaf board: the 7x7 room as the last turn left it: the window and the light band (lit
 * tiles gold, band tiles kept dark by shade, lattice or cloud pale), furniture, the hearth,
 * the bowls' mats with their serving turn, the dogs, and the cats with their settled streak
 * and purr tier. */
(function () {
  "use strict";
  var el = SB.el;
  var X0 = 40, Y0 = 92, T = 62;
  var SIDE = { N: "north", S: "south", W: "west", E: "east" };

  function xy(tile) { return [X0 + (tile % 7) * T, Y0 + Math.floor(tile / 7) * T]; }

  function windowBar(svg, side) {
    var len = 7 * T, w = 8;
    var r = { N: [X0, Y0 - 14, len, w], S: [X0, Y0 + len + 6, len, w],
      W: [X0 - 14, Y0, w, len], E: [X0 + len + 6, Y0, w, len] }[side];
    if (!r) return;
    el(svg, "rect", { x: r[0], y: r[1], width: r[2], height: r[3], fill: "#8ecae6", stroke: "#1f9bd1", "data-field": "layout.window" });
  }

  function legend(svg, x, y) {
    var items = [["#ffd54f", "lit"], ["#f6efcf", "band, kept dark"], ["#f4f5f7", "dark"],
      ["#8d6e63", "furniture"], ["#fbd5d0", "hearth"], ["#b7e4c7", "bowl's mat"]];
    items.forEach(function (it, i) {
      el(svg, "rect", { x: x, y: y + i * 20, width: 14, height: 14, fill: it[0], stroke: "#98a2b3" });
      el(svg, "text", { x: x + 20, y: y + i * 20 + 12, "font-size": 12 }, it[1]);
    });
    var cy = y + items.length * 20 + 12;
    el(svg, "circle", { cx: x + 7, cy: cy, r: 7, fill: "#f08c00" });
    el(svg, "text", { x: x + 20, y: cy + 4, "font-size": 12 }, "cat: id, s settled, t tier");
    el(svg, "rect", { x: x, y: cy + 14, width: 14, height: 14, fill: "#7048e8" });
    el(svg, "text", { x: x + 20, y: cy + 26, "font-size": 12 }, "dog (wakes cats on and next to it)");
  }

  SB.games.sunloaf = {
    width: 760,
    height: 560,
    draw: function (svg, f) {
      el(svg, "text", { x: 20, y: 26, "font-size": 16, "font-weight": 700, "data-field": "day turn phase result mult chain" },
        "day " + f.day + " \u00b7 turn " + f.turn + "/" + f.turns + " \u00b7 " + f.phase +
        (f.result ? " (" + f.result + ")" : "") + " \u00b7 mult " + f.mult + "% \u00b7 chain " + f.chain);
      var met = f.cosy >= f.quota;
      el(svg, "text", { x: 20, y: 48, "font-size": 13, fill: met ? "#12805c" : "#b54708",
        "data-field": "dayCosyRaw dayQuota dayPar" },
        "day's cosy " + f.cosy + " / quota " + f.quota + " (par " + f.par + ")" + (met ? " \u2713 quota met" : ""));
      var cloudy = f.clouds.indexOf(f.lightTurn) >= 0;
      el(svg, "text", { x: 20, y: 68, "font-size": 12, fill: "#667085", "data-field": "layout" },
        "light of turn " + f.lightTurn + " from the " + SIDE[f.window] + " window \u00b7 shade " + f.shade +
        (f.lattice !== null ? " \u00b7 lattice " + f.lattice : "") + (cloudy ? " \u00b7 CLOUDY" : "") +
        (f.clouds.length ? " \u00b7 clouds at " + f.clouds.join(", ") : ""));
      windowBar(svg, f.window);
      var mats = {};
      f.bowls.forEach(function (b, i) { mats[b[0]] = [b[1], i]; });
      for (var tile = 0; tile < 49; tile++) {
        var p = xy(tile);
        var fill = f.furniture.indexOf(tile) >= 0 ? "#8d6e63" : f.lit.indexOf(tile) >= 0 ? "#ffd54f" :
          f.band.indexOf(tile) >= 0 ? "#f6efcf" : tile === f.hearth ? "#fbd5d0" : "#f4f5f7";
        el(svg, "rect", { x: p[0], y: p[1], width: T, height: T, fill: fill, stroke: "#d0d5dd",
          "data-field": f.furniture.indexOf(tile) >= 0 ? "layout.furniture" : null });
        if (tile === f.hearth) {
          el(svg, "rect", { x: p[0] + 3, y: p[1] + 3, width: T - 6, height: T - 6, fill: "none",
            stroke: "#c92a2a", "stroke-width": 2, "data-field": "layout.hearth" });
          el(svg, "text", { x: p[0] + T / 2, y: p[1] + T - 6, "text-anchor": "middle", "font-size": 10, fill: "#c92a2a" }, "hearth");
        }
        if (mats[tile]) {
          var left = mats[tile][0] - f.turn;
          el(svg, "rect", { x: p[0] + 6, y: p[1] + 6, width: T - 12, height: T - 12, rx: 10, fill: "#b7e4c7",
            opacity: left < 0 ? 0.4 : 1, "data-field": "bowls[" + mats[tile][1] + "]" });
          el(svg, "text", { x: p[0] + T / 2, y: p[1] + 16, "text-anchor": "middle", "font-size": 10, fill: "#2b8a3e" },
            left < 0 ? "served" : "bowl t" + mats[tile][0]);
        }
        if (f.furniture.indexOf(tile) >= 0) {
          el(svg, "text", { x: p[0] + T / 2, y: p[1] + T / 2 + 4, "text-anchor": "middle", "font-size": 11, fill: "#fff" }, "furniture");
        }
      }
      f.dogs.forEach(function (tile, i) {
        var p = xy(tile);
        el(svg, "rect", { x: p[0] + 4, y: p[1] + T - 24, width: 30, height: 20, rx: 4, fill: "#7048e8", "data-field": "dogs[" + i + "]" });
        el(svg, "text", { x: p[0] + 19, y: p[1] + T - 10, "text-anchor": "middle", "font-size": 11, fill: "#fff" }, "dog");
      });
      f.cats.forEach(function (c, i) {
        var p = xy(c[1]), big = c[3];
        var g = el(svg, "g", { "data-field": "cats[" + i + "]", "class": "cat" });
        el(g, "circle", { cx: p[0] + T / 2, cy: p[1] + T / 2 - 4, r: big ? 19 : 14, fill: "#f08c00", stroke: "#7a3e00" });
        el(g, "text", { x: p[0] + T / 2, y: p[1] + T / 2 + 1, "text-anchor": "middle", "font-size": 13,
          "font-weight": 700, fill: "#fff" }, c[0]);
        el(g, "text", { x: p[0] + T / 2, y: p[1] + T - 4, "text-anchor": "middle", "font-size": 11,
          "font-weight": 600, "class": "mono" }, "s" + c[2] + " t" + c[4]);
        el(g, "title", {}, "cat " + c[0] + (big ? " (big)" : "") + ": settled " + c[2] + ", tier " + c[4]);
      });
      var lx = X0 + 7 * T + 40;
      legend(svg, lx, Y0);
      el(svg, "text", { x: lx, y: Y0 + 200, "font-size": 13, "font-weight": 600 }, "bowls");
      f.bowls.forEach(function (b, i) {
        var left = b[1] - f.turn;
        el(svg, "text", { x: lx, y: Y0 + 220 + i * 18, "font-size": 12, "data-field": "bowls[" + i + "]" },
          "mat " + b[0] + " serves at turn " + b[1] + (left < 0 ? " (served)" : " (in " + left + ")"));
      });
    },
  };
})();
