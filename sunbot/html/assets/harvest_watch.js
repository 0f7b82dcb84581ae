/* Harvest Watch board: the six seats round the table with their stores, who is out, their
 * latest speech, ballots as arrows, the fine, our own thefts seen (caught, collided), the
 * public line and, once done, the ranks. With several seats of ours every one is marked "(us)"
 * and the header names them all and the seat whose view the step shows. Speeches are other players' free text: they are
 * only ever set as text (textContent), cut on the board and shown whole in the table below. */
(function () {
  "use strict";
  var el = SB.el;
  var CX = 380, CY = 262, RAD = 185;

  function at(seat) {
    var a = -Math.PI / 2 + (seat * Math.PI) / 3;
    return [CX + RAD * Math.cos(a), CY + RAD * Math.sin(a)];
  }
  function obj(x) { return x && typeof x === "object" ? x : {}; }
  function list(x) { return Array.isArray(x) ? x : []; }

  function arrow(svg, from, to, colour, label) {
    var a = at(from), b = at(to), dx = b[0] - a[0], dy = b[1] - a[1], d = Math.sqrt(dx * dx + dy * dy) || 1;
    var x1 = a[0] + (dx / d) * 44, y1 = a[1] + (dy / d) * 44, x2 = b[0] - (dx / d) * 46, y2 = b[1] - (dy / d) * 46;
    el(svg, "line", { x1: x1, y1: y1, x2: x2, y2: y2, stroke: colour, "stroke-width": 2.2,
      "marker-end": "url(#hw-arrow)", opacity: 0.85, "data-field": "votes." + from });
    if (label) el(svg, "text", { x: (x1 + x2) / 2, y: (y1 + y2) / 2 - 4, "font-size": 11, fill: colour,
      "text-anchor": "middle" }, label);
  }

  SB.games["harvest-watch"] = {
    width: 760,
    height: 540,
    draw: function (svg, f, step, extra) {
      var foods = list(f.foods), alive = list(f.alive), ranks = list(f.ranks);
      /* our seats: all of them when we play several (f.ours), else the one we are; the
       * private lines (pending, caught, collided) are the seat whose view this is (f.you) */
      var ours = list(f.ours).length ? list(f.ours) : [f.you], several = ours.length > 1;
      var whose = several ? "seat " + f.you + "'s " : "our ";
      var sp1 = obj(f.speeches1), sp2 = obj(f.speeches2), votes = obj(f.votes);
      var defs = el(svg, "defs", {});
      var mk = el(defs, "marker", { id: "hw-arrow", viewBox: "0 0 10 10", refX: 9, refY: 5,
        markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse" });
      el(mk, "path", { d: "M0 0 L10 5 L0 10 z", fill: "#d92d20" });
      el(svg, "text", { x: 20, y: 26, "font-size": 16, "font-weight": 700, "data-field": "day phase round" },
        "day " + f.day + " \u00b7 " + f.phase + " \u00b7 round " + f.round + " \u00b7 " +
        (several ? "our seats " + ours.join(", ") + " \u00b7 seat " + f.you + "'s view" : "we are seat " + f.you));
      el(svg, "text", { x: 20, y: 46, "font-size": 12, fill: "#667085", "data-field": "nightCost" },
        "tonight's cost: " + (f.nightCost === null || f.nightCost === undefined ? "paid" : SB.fmt(f.nightCost)));
      var top = Math.max(1, Math.max.apply(null, foods.length ? foods : [1]));
      Object.keys(votes).forEach(function (s) {
        var v = obj(votes[s]);
        if (v.punish !== null && v.punish !== undefined) {
          arrow(svg, Number(s), Number(v.punish), "#d92d20", "give \u2192 " + v.giveTo);
        }
      });
      foods.forEach(function (food, s) {
        var p = at(s), out = alive.indexOf(s) < 0, me = ours.indexOf(s) >= 0;
        var g = el(svg, "g", { "data-field": "foods[" + s + "] aliveSeats speeches1." + s + " speeches2." + s, "class": "seat" });
        el(g, "circle", { cx: p[0], cy: p[1], r: 40, fill: out ? "#e4e7ec" : me ? "#dbeafe" : "#fff",
          stroke: me ? "#2e6fd8" : "#667085", "stroke-width": s === f.you ? 3 : me ? 2 : 1.2 });
        el(g, "text", { x: p[0], y: p[1] - 12, "text-anchor": "middle", "font-size": 12,
          fill: "#667085" }, "seat " + s + (me ? " (us)" : ""));
        el(g, "text", { x: p[0], y: p[1] + 10, "text-anchor": "middle", "font-size": 20,
          "font-weight": 700, fill: out ? "#98a2b3" : "#1d2430", "class": "food" }, SB.fmt(food));
        el(g, "rect", { x: p[0] - 30, y: p[1] + 18, width: 60, height: 6, fill: "#eaecf0" });
        el(g, "rect", { x: p[0] - 30, y: p[1] + 18, width: (60 * Math.max(0, food)) / top, height: 6, fill: "#12805c" });
        if (out) el(g, "text", { x: p[0], y: p[1] + 58, "text-anchor": "middle", "font-size": 13,
          "font-weight": 700, fill: "#d92d20" }, "out");
        if (ranks.length) el(g, "text", { x: p[0], y: p[1] - 48, "text-anchor": "middle", "font-size": 13,
          "font-weight": 700, fill: ranks[s] === 1 ? "#12805c" : "#1d2430" }, "rank " + ranks[s]);
        var said = sp2[String(s)] !== undefined ? sp2[String(s)] : sp1[String(s)];
        if (said !== undefined) {
          var right = p[0] >= CX - 1;
          var t = el(g, "text", { x: p[0] + (right ? 48 : -48), y: p[1] + (out ? -20 : 4), "font-size": 11,
            "text-anchor": right ? "start" : "end", fill: "#344054", "font-style": "italic" }, "\u201c" + SB.cut(said, 26) + "\u201d");
          el(t, "title", {}, String(said));
        }
      });
      var pr = obj(f.punishResult), lines = [];
      if (pr.punished !== null && pr.punished !== undefined) {
        var shares = Object.keys(obj(pr.shares)).map(function (m) { return m + " +" + SB.fmt(pr.shares[m]); });
        lines.push(["fine: seat " + pr.punished + " \u2212" + SB.fmt(pr.fine) + " (" + shares.join(", ") + ")", "punishResult", "#d92d20"]);
      }
      if (list(f.caught).length) lines.push(["caught stealing from " + (several ? "seat " + f.you : "us") + ": seats " + f.caught.join(", "), "caught", "#b54708"]);
      if (list(f.collided).length) lines.push(["collided with " + whose + "theft: seats " + f.collided.join(", "), "collided", "#b54708"]);
      if (f.pending) lines.push([whose + "pending command: " + SB.cut(JSON.stringify(f.pending), 60), "pending", "#667085"]);
      lines.push([SB.cut(f.lastPublic, 60), "lastPublic", "#1d2430"]);
      lines.forEach(function (l, i) {
        el(svg, "text", { x: CX, y: CY - 10 + i * 18 - (lines.length - 1) * 9, "text-anchor": "middle", "font-size": 12,
          fill: l[2], "data-field": l[1] }, l[0]);
      });
      SB.h(extra, "h2", null, "Speeches and ballots of day " + f.day);
      var table = SB.h(extra, "table"), head = SB.h(table, "tr");
      ["seat", "store", "speech 1", "speech 2", "ballot"].forEach(function (c) { SB.h(head, "th", null, c); });
      foods.forEach(function (food, s) {
        var row = SB.h(table, "tr"), v = votes[String(s)];
        SB.h(row, "td", null, s + (ours.indexOf(s) >= 0 ? " (us)" : "") + (alive.indexOf(s) < 0 ? " out" : ""));
        SB.h(row, "td", null, SB.fmt(food));
        SB.h(row, "td", "speech", sp1[String(s)] === undefined ? "" : sp1[String(s)]);
        SB.h(row, "td", "speech", sp2[String(s)] === undefined ? "" : sp2[String(s)]);
        SB.h(row, "td", null, v === undefined ? "" : v.punish === null || v.punish === undefined ? "no fine" :
          "fine " + v.punish + ", give to " + v.giveTo);
      });
    },
  };
})();
