/* sunbot replay page: controls, header, score chart and divergence list. Game scripts
 * register SB.games[slug] = {width, height, draw(svg, frame, step, extra)}.
 * Every text from the transcript goes into the page through textContent, never as markup. */
(function () {
  "use strict";
  var SB = (window.SB = window.SB || {});
  SB.games = SB.games || {};
  var NS = "http://www.w3.org/2000/svg";

  /* An SVG element with attributes (null/undefined ones skipped) and optional text. */
  SB.el = function (parent, tag, attrs, text) {
    var e = document.createElementNS(NS, tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (attrs[k] !== null && attrs[k] !== undefined) e.setAttribute(k, String(attrs[k]));
    });
    if (text !== undefined && text !== null) e.textContent = String(text);
    if (parent) parent.appendChild(e);
    return e;
  };
  /* An HTML element with a class and optional text. */
  SB.h = function (parent, tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    if (parent) parent.appendChild(e);
    return e;
  };
  /* A string cut to n characters with an ellipsis. */
  SB.cut = function (text, n) {
    text = String(text === null || text === undefined ? "" : text);
    return text.length <= n ? text : text.slice(0, n - 1) + "\u2026";
  };
  SB.fmt = function (x) {
    if (x === null || x === undefined) return "-";
    return Math.round(x) === x ? String(x) : x.toFixed(1);
  };
  SB.signed = function (x) {
    if (x === null || x === undefined) return "";
    return x > 0 ? "+" + SB.fmt(x) : x < 0 ? "\u2212" + SB.fmt(-x) : "\u00b10";
  };

  /* Whether two field paths are the same field or one contains the other. */
  function related(a, b) {
    if (a === b) return true;
    var s = a.length < b.length ? a : b, l = a.length < b.length ? b : a;
    return l.indexOf(s) === 0 && (l.charAt(s.length) === "." || l.charAt(s.length) === "[");
  }

  SB.start = function () {
    var data = JSON.parse(document.getElementById("sunbot-data").textContent);
    var game = SB.games[data.game];
    var steps = data.steps, frames = [], cur = {}, k, playing = null;
    data.frames.forEach(function (delta) {
      cur = Object.assign({}, cur, delta);
      frames.push(cur);
    });
    var $ = function (id) { return document.getElementById(id); };
    var slider = $("slider"), board = $("board"), extra = $("extra");
    var last = steps.length - 1;
    document.title = "sunbot replay \u00b7 " + data.name + " \u00b7 seed " + data.header.seed;
    $("title").textContent = "sunbot replay \u00b7 " + data.name;
    var meta = $("meta");
    data.meta.forEach(function (pair) {
      var d = SB.h(meta, "div");
      SB.h(d, "dt", null, pair[0]);
      SB.h(d, "dd", null, pair[1]);
    });
    if (data.cut) $("cut").textContent = "transcript cut: " + data.cut;
    $("score-label").textContent = data.scoreLabel;
    slider.max = String(last);
    board.setAttribute("viewBox", "0 0 " + game.width + " " + game.height);
    var seats = data.seats || [];
    var chart = drawChart($("chart"), steps, data.scoreLabel, function (i) { show(i); }, seats);

    function show(i) {
      k = Math.max(0, Math.min(last, i));
      var st = steps[k];
      slider.value = String(k);
      $("counter").textContent = "step " + st.i + " (" + (k + 1) + " of " + steps.length + ")";
      $("action").textContent = st.a;
      var delta = $("delta");
      if (st.ss) {  /* several seats of ours: each one's store, no single change */
        $("score").textContent = seats.map(function (seat, j) {
          return "seat " + seat + " " + SB.fmt(st.ss[j]);
        }).join(" \u00b7 ");
        delta.textContent = "";
      } else {
        $("score").textContent = SB.fmt(st.s);
        delta.textContent = k === 0 ? "" : SB.signed(st.d);
      }
      delta.className = st.d > 0 ? "up" : st.d < 0 ? "down" : "";
      $("progress").textContent = st.p;
      $("agent").textContent = st.m || "";  /* a model's answer: text, never markup */
      $("refused").textContent = st.r ? "refused: " + st.r : "";
      $("nf").textContent = st.nf || "";
      while (board.firstChild) board.removeChild(board.firstChild);
      while (extra.firstChild) extra.removeChild(extra.firstChild);
      game.draw(board, frames[k], st, extra);
      markDivergences(st.dv);
      chart.cursor(k);
      try { history.replaceState(null, "", "#step=" + k); } catch (e) { /* file: URLs */ }
    }

    function markDivergences(dv) {
      var box = $("divergences");
      while (box.firstChild) box.removeChild(box.firstChild);
      SB.h(box, "h2", null, "Divergences at this step: " + dv.length);
      var list = SB.h(box, "ul");
      if (!dv.length) SB.h(list, "li", "none", "none: " + data.checks.agrees);
      dv.forEach(function (d) {
        SB.h(list, "li", "divergence", d.path + ": expected " + d.expected + ", got " + d.got +
          (d.note ? " (" + d.note + ")" : "") + " [" + d.source + "]");
      });
      var marked = board.querySelectorAll("[data-field]");
      for (var j = 0; j < marked.length; j++) {
        var fields = marked[j].getAttribute("data-field").split(" ");
        for (var n = 0; n < dv.length; n++) {
          if (fields.some(function (f) { return related(f, dv[n].field); })) {
            marked[j].classList.add("diverged");
          }
        }
      }
    }

    function stop() {
      if (playing !== null) clearInterval(playing);
      playing = null;
      $("play").textContent = "play";
      $("play").title = "play (space)";
    }
    function toggle() {
      if (playing !== null) return stop();
      if (k >= last) show(0);
      $("play").textContent = "pause";
      $("play").title = "pause (space)";
      playing = setInterval(function () {
        if (k >= last) return stop();
        show(k + 1);
      }, Number($("speed").value));
    }
    $("first").onclick = function () { stop(); show(0); };
    $("prev").onclick = function () { stop(); show(k - 1); };
    $("next").onclick = function () { stop(); show(k + 1); };
    $("last").onclick = function () { stop(); show(last); };
    $("play").onclick = toggle;
    $("speed").onchange = function () { if (playing !== null) { stop(); toggle(); } };
    slider.oninput = function () { stop(); show(Number(slider.value)); };
    document.addEventListener("keydown", function (e) {
      if (e.target === slider || e.target.tagName === "SELECT") return;
      var to = { ArrowRight: k + 1, ArrowLeft: k - 1, Home: 0, End: last }[e.key];
      if (to !== undefined) { stop(); show(to); e.preventDefault(); }
      else if (e.key === " " || e.key === "k") { toggle(); e.preventDefault(); }
    });
    var m = /step=(\d+)/.exec(location.hash);
    show(m ? Number(m[1]) : 0);
    document.body.setAttribute("data-ready", "1");
  };

  var COLOURS = ["#2e6fd8", "#12805c", "#b54708", "#7a5af8", "#d92d20", "#667085"];

  /* The score-over-time chart: axes with labels, the line (one per seat of ours when a
   * match has several, each labelled with its seat), divergence markers, a cursor. */
  function drawChart(svg, steps, label, jump, seats) {
    var W = 480, H = 220, L = 58, R = 52, T = 14, B = 40;
    svg.setAttribute("viewBox", "0 0 " + W + " " + H);
    var lines = seats.length > 1 && steps[0].ss ? seats.map(function (seat, j) {
      return steps.map(function (s) { return s.ss ? s.ss[j] : null; });
    }) : [steps.map(function (s) { return s.s; })];
    if (lines.length === 1) R = 12;
    var ys = [].concat.apply([], lines).filter(function (v) { return v !== null && v !== undefined; });
    var lo = Math.min(0, Math.min.apply(null, ys.length ? ys : [0]));
    var hi = Math.max.apply(null, ys.length ? ys : [1]);
    if (hi <= lo) hi = lo + 1;
    var n = Math.max(1, steps.length - 1);
    var x = function (i) { return L + (i / n) * (W - L - R); };
    var y = function (v) { return T + (1 - (v - lo) / (hi - lo)) * (H - T - B); };
    SB.el(svg, "line", { x1: L, y1: H - B, x2: W - R, y2: H - B, stroke: "#667085" });
    SB.el(svg, "line", { x1: L, y1: T, x2: L, y2: H - B, stroke: "#667085" });
    [[lo, "end"], [hi, "end"]].forEach(function (p) {
      SB.el(svg, "text", { x: L - 4, y: y(p[0]) + 4, "text-anchor": "end", "font-size": 11 }, SB.fmt(p[0]));
    });
    SB.el(svg, "text", { x: L, y: H - B + 14, "text-anchor": "middle", "font-size": 11 }, steps[0].i);
    SB.el(svg, "text", { x: W - R, y: H - B + 14, "text-anchor": "end", "font-size": 11 }, steps[steps.length - 1].i);
    SB.el(svg, "text", { x: (L + W - R) / 2, y: H - 6, "text-anchor": "middle", "font-size": 12 }, "step");
    SB.el(svg, "text", { x: 14, y: (T + H - B) / 2, "text-anchor": "middle", "font-size": 12,
      transform: "rotate(-90 14 " + (T + H - B) / 2 + ")" }, label);
    lines.forEach(function (vals, j) {
      var pts = [], end = null;
      vals.forEach(function (v, i) {
        if (v !== null && v !== undefined) { pts.push(x(i).toFixed(1) + "," + y(v).toFixed(1)); end = [x(i), y(v)]; }
      });
      var colour = COLOURS[j % COLOURS.length];
      SB.el(svg, "polyline", { points: pts.join(" "), fill: "none", stroke: colour, "stroke-width": 1.8,
        "class": "series", "data-seat": lines.length > 1 ? seats[j] : null });
      if (lines.length > 1 && end) SB.el(svg, "text", { x: end[0] + 4, y: end[1] + 4 + j * 11, "font-size": 11,
        fill: colour, "class": "series-label" }, "seat " + seats[j]);
    });
    var cursor = SB.el(svg, "line", { x1: 0, y1: T, x2: 0, y2: H - B, stroke: "#f79009", "stroke-width": 2 });
    var dot = SB.el(svg, "circle", { r: 4, fill: "#f79009" });
    /* drawn after the cursor, so a divergent current step keeps its red mark on top */
    steps.forEach(function (s, i) {
      if (s.dv.length) {
        SB.el(svg, "circle", { cx: x(i), cy: y(s.s === null ? lo : s.s), r: 4.5,
          "class": "diverged-mark", "data-step": i });
      }
    });
    svg.addEventListener("click", function (e) {
      var box = svg.getBoundingClientRect();
      var px = ((e.clientX - box.left) / box.width) * W;
      jump(Math.round(((px - L) / (W - L - R)) * n));
    });
    return {
      cursor: function (i) {
        cursor.setAttribute("x1", x(i)); cursor.setAttribute("x2", x(i));
        var v = steps[i].s;
        dot.setAttribute("cx", x(i)); dot.setAttribute("cy", y(v === null ? lo : v));
      },
    };
  }
})();
