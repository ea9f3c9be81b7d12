// Layout check for report.html, run inside headless Chromium by scripts/screenshots.sh: opens every
// folded <details>, then lists what a reader would see cut off or missing, as lines in the body's
// data-layout attribute ("ok" when there is nothing). Checked: the page never scrolls sideways;
// no heading, paragraph, caption, summary, list item or table cell is wider than its own box
// (text cut or spilling over); every SVG text lies inside its chart; the table of contents is
// there; a parallel-coordinates figure spans the page's column.
(function () {
  var problems = [];
  function name(el) {
    var s = el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") + (el.getAttribute("class") ? "." + el.getAttribute("class").split(" ")[0] : "");
    var chart = el.closest && el.closest("svg");
    if (chart && chart !== el) s = "svg[" + (chart.getAttribute("aria-label") || "") + "] " + s;
    var text = (el.textContent || "").replace(/\s+/g, " ").trim();
    return s + " \"" + (text.length > 60 ? text.slice(0, 59) + "…" : text) + "\"";
  }
  document.querySelectorAll("details").forEach(function (d) { d.open = true; });
  var doc = document.documentElement;
  if (doc.scrollWidth > window.innerWidth + 1)
    problems.push("the page scrolls sideways: " + doc.scrollWidth + " px wide in a " + window.innerWidth + " px window");
  document.querySelectorAll("h1, h2, h3, p, figcaption, summary, li, th, td, nav.toc").forEach(function (el) {
    if (el.scrollWidth > el.clientWidth + 1)
      problems.push("cut off (" + el.scrollWidth + " px of text in " + el.clientWidth + " px): " + name(el));
  });
  document.querySelectorAll("svg.chart").forEach(function (svg) {
    var box = svg.getBoundingClientRect();
    if (box.width === 0) return;
    svg.querySelectorAll("text").forEach(function (t) {
      var r = t.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) return;
      if (r.left < box.left - 1 || r.right > box.right + 1 || r.top < box.top - 1 || r.bottom > box.bottom + 1)
        problems.push("outside its chart (" + Math.round(r.left - box.left) + ".." + Math.round(r.right - box.left) + " of " + Math.round(box.width) + " px across): " + name(t));
    });
  });
  var toc = document.querySelector("nav.toc");
  if (!toc || toc.querySelectorAll("a").length === 0) problems.push("no table of contents (nav.toc with links)");
  var main = document.querySelector("main");
  var column = main.clientWidth - parseFloat(getComputedStyle(main).paddingLeft) - parseFloat(getComputedStyle(main).paddingRight);
  var pc = document.querySelector("#parallel figure");
  if (pc) {
    var w = pc.getBoundingClientRect().width;
    if (w < 0.95 * column) problems.push("parallel coordinates " + Math.round(w) + " px wide in a " + Math.round(column) + " px column");
  }
  document.body.setAttribute("data-parallel", pc ? "yes" : "no");
  document.body.setAttribute("data-layout", problems.length ? problems.join("@@@") : "ok");
})();
