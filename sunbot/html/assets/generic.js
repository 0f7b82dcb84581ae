/* Generic board for a game sunbot has no board for: the action that led to the position,
 * then the observation as an indented tree (one row per field, sunbot/html/generic.py),
 * rows that changed since the step before highlighted. Every key and value is the server's
 * text and goes on the board through SB.el's textContent only, never as markup.
 * Registered as SB.games.generic, and under the page's own game slug when no other script
 * took it (page.js looks its board up by slug). */
(function () {
  "use strict";
  var el = SB.el;
  var ROW = 18, TOP = 56, INDENT = 16, KEYW = 230;

  var board = {
    width: 760,
    height: 470,
    draw: function (svg, f, st) {
      var rows = (f && f.rows) || [];
      var changed = {};
      ((f && f.changed) || []).forEach(function (p) { changed[p] = true; });
      var height = Math.max(board.height, TOP + (rows.length + 2) * ROW);
      svg.setAttribute("viewBox", "0 0 " + board.width + " " + height);
      el(svg, "text", { x: 20, y: 24, "font-size": 15, "font-weight": 700 },
        SB.cut(st && st.i === 0 ? "opening position" : "after " + (st ? st.a : "?"), 90));
      el(svg, "text", { x: 20, y: 42, "font-size": 11, fill: "#667085" },
        rows.length + " fields" + (f && f.more ? " (" + f.more + " more not drawn)" : "") +
        " \u00b7 highlighted: changed since the step before");
      rows.forEach(function (r, i) {
        var y = TOP + i * ROW, depth = r[0], key = r[1], text = r[2], path = r[3];
        var g = el(svg, "g", { "data-field": path, "class": changed[path] ? "row changed" : "row" });
        if (changed[path]) {
          el(g, "rect", { x: 14, y: y - 3, width: board.width - 28, height: ROW, rx: 3, fill: "#fff4d6" });
        }
        var x = 20 + depth * INDENT;
        el(g, "text", { x: x, y: y + 10, "font-size": 12, "font-weight": 600, "class": "mono" }, SB.cut(key, 40));
        el(g, "text", { x: Math.max(x + 12, KEYW), y: y + 10, "font-size": 12, "class": "mono",
          fill: changed[path] ? "#b54708" : "#1d2430" }, SB.cut(text, 70));
        el(g, "title", {}, path + " = " + text);
      });
      if (!rows.length) {
        el(svg, "text", { x: 20, y: TOP + 10, "font-size": 13, fill: "#667085" }, "no observation fields");
      }
    },
  };
  SB.games.generic = board;
  var data = document.getElementById("sunbot-data");
  try {
    var slug = data ? JSON.parse(data.textContent).game : null;
    if (typeof slug === "string" && !Object.prototype.hasOwnProperty.call(SB.games, slug)) {
      SB.games[slug] = board;
    }
  } catch (e) { /* page.js reports an unreadable page itself */ }
})();
