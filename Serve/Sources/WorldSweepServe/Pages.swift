import WorldSweepRun

/// The server's pages: the catalog (`/`), a tune's search (`/tune?run=PATH`) and the replay (`/replay?run=PATH`). Each is one
/// document with its style and script inline; the data come from the JSON endpoints, so the same
/// page serves any folder. They read from 390 px up.
enum Pages {
    /// A page on the shared shell (`HTML.page`: head, viewport, lang, the one stylesheet), with the
    /// server's own rules after it and the page's script at the end of its body.
    static func shell(title: String, body: String, script: String) -> String {
        HTML.page(title: title, extraStyle: style, body: body + "\n<script>\(script)</script>\n")
    }

    /// What the server's pages add to the shared stylesheet: controls, the catalog (cards below
    /// 700 px), progress bars, the replay's panes and sliders.
    static let style = """
    code,pre{font:13px/1.4 ui-monospace,Menlo,Consolas,monospace;background:#f4f4f4;border-radius:3px}
    pre{padding:6px 8px;overflow-x:auto;white-space:pre-wrap;word-break:break-all}
    .controls{display:flex;flex-wrap:wrap;gap:8px 14px;align-items:center;margin:8px 0 12px}
    input,select,button{font:inherit}input[type=search]{min-width:14em}
    table.catalog{width:100%}table.catalog th,table.catalog td{border:0;border-bottom:1px solid #e3e3e3;padding:6px 8px}
    th button{border:0;background:none;font-weight:600;cursor:pointer;padding:0}
    table.catalog td:first-child{white-space:nowrap}
    .state{font-weight:600}.done{color:#1b6e20}.running{color:#0b57a4}.interrupted,.partial{color:#a35a00}.unknown{color:#777}
    .bar{height:6px;background:#e5eef8;border-radius:3px;margin:3px 0;max-width:220px}.bar span{display:block;height:6px;background:#0b57a4;border-radius:3px}
    small{color:#555}.headline{max-width:36em}.links a{margin-right:8px;white-space:nowrap}
    .panes{display:grid;grid-template-columns:repeat(auto-fit,minmax(340px,1fr));gap:16px}
    .pane{border:1px solid #ddd;border-radius:6px;padding:10px;min-width:0}.pane canvas{display:block;margin:0 auto;max-width:100%;max-height:58vh;width:auto;height:auto;background:#fafafa;border:1px solid #eee}
    .slider{display:grid;grid-template-columns:minmax(9em,14em) 1fr 5.5em;gap:8px;align-items:center;margin:4px 0}
    .slider input[type=range]{width:100%}.err{color:#b00020}
    #chart,#convergence{width:100%;max-width:760px;height:auto;background:#fff;border:1px solid #eee}#chart circle{fill:#4e79a7;fill-opacity:.6;cursor:pointer}#chart circle:hover{fill:#e15759;fill-opacity:1}
    @media (max-width:700px){
      table.catalog thead{display:none}table.catalog tr{display:block;border:1px solid #ddd;border-radius:6px;margin:0 0 10px;padding:4px}
      table.catalog td{display:block;border:0;padding:3px 6px;text-align:left}
      table.catalog td[data-label]::before{content:attr(data-label) ": ";color:#666;font-weight:600}
      .slider{grid-template-columns:1fr 4.5em}.slider label{grid-column:1/3}
    }
    """

    static func catalog(folder: String) -> String {
        shell(title: "Runs in \(folder)", body: """
        <h1>Runs in <code>\(HTML.escape(folder))</code></h1>
        <p><small>Live: this list follows the folder (new runs, progress, shards) without reloading. Files are served read-only.</small></p>
        <div class="controls">
        <input type="search" id="filter" placeholder="filter: name, status, finding" aria-label="filter">
        <select id="kind" aria-label="kind"><option value="">every kind</option><option>sweep</option><option>tune</option><option>shards</option><option>compare</option></select>
        <select id="state" aria-label="status"><option value="">every status</option><option>done</option><option>running</option><option>interrupted</option><option>partial</option></select>
        <span id="count"></span>
        </div>
        <table class="catalog"><thead><tr>
        <th><button data-key="name">Name</button></th><th><button data-key="kind">Kind</button></th>
        <th><button data-key="state">Status</button></th><th><button data-key="worlds">Worlds</button></th>
        <th><button data-key="seconds">Duration</button></th><th><button data-key="modified">Date</button></th>
        <th>Headline finding</th><th>Open</th></tr></thead><tbody id="runs"><tr><td colspan="8">loading…</td></tr></tbody></table>
        <h2>Compare two runs</h2>
        <form class="controls" action="/compare" method="get">
        <label>A <select name="a" id="compare-a"></select></label><label>B <select name="b" id="compare-b"></select></label>
        <button type="submit">Compare</button></form>
        """, script: catalogScript)
    }

    static func tune(run: String) -> String {
        shell(title: "Tune: \(run)", body: """
        <p><a href="/">← all runs</a></p>
        <h1>Tune: <code id="run" data-run="\(HTML.escape(run))">\(HTML.escape(run))</code></h1>
        <p id="status"><small>loading…</small></p>
        <div id="answer"></div>
        <h2>Best so far</h2><div id="best"></div>
        <h2>Convergence</h2>
        <p><small>After each generation, the best point among every one evaluated so far (live: pushed as the search records its generations).</small></p>
        <svg id="convergence" viewBox="0 0 640 260" role="img" aria-label="the best so far against the worlds run"></svg>
        <div style="max-height:24em;overflow:auto"><table><thead><tr><th>generation</th><th>worlds</th><th>objective</th><th>best so far</th><th>met</th></tr></thead>
        <tbody id="generations"></tbody></table></div>
        """, script: tuneScript)
    }

    static func replay(run: String) -> String {
        shell(title: "Replay: \(run)", body: """
        <p><a href="/">← all runs</a></p>
        <h1>Replay: <code id="run" data-run="\(HTML.escape(run))">\(HTML.escape(run))</code></h1>
        <p id="about"><small>loading…</small></p>
        <div class="controls">
        <span>Replay into</span><label><input type="radio" name="target" value="0" checked> A</label><label><input type="radio" name="target" value="1"> B</label>
        <label>world <input type="number" id="world" min="0" value="0" style="width:7em"></label><button id="go">Replay world</button>
        </div>
        <div id="sliders"></div>
        <details id="chart-box"><summary>Pick a world on a chart (worlds.csv)</summary>
        <div class="controls"><label>x <select id="chart-x"></select></label><label>y <select id="chart-y"></select></label></div>
        <svg id="chart" viewBox="0 0 640 300" role="img" aria-label="worlds: y against x; click a dot to replay its world"></svg></details>
        <p id="error" class="err"></p>
        <div class="panes"><section class="pane" id="pane0"><h2>A</h2><p><small>Pick a world or move a slider.</small></p></section>
        <section class="pane" id="pane1"><h2>B</h2><p><small>Choose B above, then a world or values, to see two worlds side by side.</small></p></section></div>
        """, script: replayScript)
    }
}
