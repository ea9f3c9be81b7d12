// The shell of every HTML page the tool writes (report.html, compare.html, bench.html, the tune
// report's page, and any page a later command serves): the head (lang, charset, viewport, title,
// the one stylesheet), the one HTML escaper, and the components pages share (table of contents,
// figure with caption, note, tables). A page is its body on this shell:
//
//     HTML.page(title: "run-a vs run-b — comparison", body: "<h1>…</h1>\n" + HTML.table(…))
//
// or, for a page written in parts, `HTML.head(title:)` + parts + `HTML.tail`. Pages are offline:
// inline CSS and SVG, no external URLs, and readable from 390 px up (charts scale to their column,
// wide tables scroll inside their own box). This module is built once, so every page, whichever
// compilation of the engine wrote it, has the same shell.

public enum HTML {
    /// The one stylesheet, inlined in every page's head. A page needing a rule of its own passes it
    /// as `extraStyle`: it follows these rules in the same `<style>` element.
    public static let style = """
    body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;color:#222;background:#fff;margin:0}
    main{max-width:1160px;margin:0 auto;padding:16px 14px 60px}
    h1{font-size:26px;margin:8px 0 4px;overflow-wrap:anywhere}h2{font-size:20px;margin:34px 0 6px;border-bottom:1px solid #ddd;padding-bottom:4px}
    h3{font-size:16px;margin:22px 0 4px;overflow-wrap:anywhere}
    p.desc{font-size:16px;color:#444;margin:0 0 14px}p.note{color:#555;margin:4px 0 10px;font-size:14px}
    p.finding{font-size:18px;line-height:1.4;background:#f3f7fb;border-left:4px solid #4e79a7;padding:10px 14px;margin:12px 0}
    ul.findings{margin:4px 0 12px;padding-left:20px}
    .tw{max-width:100%;overflow-x:auto}
    table{border-collapse:collapse;font-size:14px;margin:6px 0 12px}
    th,td{border:1px solid #ddd;padding:4px 8px;text-align:left;vertical-align:top;overflow-wrap:break-word}code .w{white-space:nowrap}th{background:#f4f4f4}
    td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
    table.kv th{font-weight:600;background:#fafafa}
    code{font-size:13px;background:#f4f4f4;padding:1px 4px;border-radius:3px;overflow-wrap:anywhere}
    .charts{display:flex;flex-wrap:wrap;gap:12px 18px}
    figure{margin:0;flex:0 1 360px;max-width:100%;min-width:0}figure.wide{flex-basis:560px}figure.world{flex-basis:220px}
    figcaption{font-size:13px;color:#555}
    details{margin:8px 0}summary{cursor:pointer;color:#333}
    svg.chart{display:block;width:100%;height:auto;font-family:system-ui,"DejaVu Sans",sans-serif;background:#fff}
    svg .ttl{font-size:14px;font-weight:600;fill:#222}svg .tick{font-size:12px;fill:#444}
    svg .lbl{font-size:13px;fill:#222}svg .lgt{font-size:12px;font-weight:600;fill:#222}svg .cv{font-size:10px}
    svg .grid{stroke:#e6e6e6;stroke-width:1}svg .frame{fill:none;stroke:#999;stroke-width:1}
    svg .line{fill:none;stroke-width:2}svg .band{fill-opacity:.13;stroke:none}svg .err{stroke-width:1.2}
    @media (max-width:600px){p.finding{font-size:15px;padding:8px 10px}table.stack,table.stack tbody,table.stack tr,table.stack td{display:block}table.stack tr:first-child{display:none}
    table.stack tr{border:1px solid #ddd;margin:0 0 8px}table.stack td{border:none;padding:2px 8px}table.stack td.n{text-align:left}}
    .sc{overflow-x:auto}.sc svg.chart{min-width:360px}.sc.pc svg.chart{min-width:900px}
    nav.toc{font-size:14px;background:#fafafa;border:1px solid #e4e4e4;padding:6px 12px;margin:10px 0}nav.toc ul{margin:2px 0;padding-left:18px}
    figure.full{flex-basis:100%}
    .swatch{display:inline-block;width:10px;height:10px;margin:0 3px 0 6px;vertical-align:baseline}
    """

    // MARK: the page

    /// A whole page: the head, `body` (HTML, already escaped where it is content) inside `<main>`,
    /// the tail.
    public static func page(title: String, extraStyle: String = "", body: String) -> String {
        head(title: title, extraStyle: extraStyle) + body + tail
    }

    /// Everything up to and including `<main>`: doctype, `lang`, charset, viewport, the title
    /// (escaped here) and the stylesheet.
    public static func head(title: String, extraStyle: String = "") -> String {
        var h = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        h += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        h += "<title>\(escape(title))</title>\n<style>\n\(style)\n"
        if !extraStyle.isEmpty { h += extraStyle + "\n" }
        return h + "</style>\n</head>\n<body>\n<main>\n"
    }

    /// What closes `head(title:)`.
    public static let tail = "</main>\n</body>\n</html>\n"

    // MARK: text

    /// Escapes text for HTML and SVG content and attribute values: `& < > " '`, and control
    /// characters other than tab and newline (not allowed in XML 1.0) as spaces.
    @inlinable
    public static func escape(_ s: String) -> String {
        // Most text (names, numbers, sentences) has nothing to escape: returned as is, found so
        // from the string's contiguous bytes rather than character by character.
        var bytes = s
        guard bytes.withUTF8({ $0.contains { $0 < 0x20 || $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 } }) else { return s }
        var out = ""
        out.reserveCapacity(s.utf8.count + 16)
        for ch in s.unicodeScalars {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default:
                if ch.value < 0x20 && ch != "\t" && ch != "\n" { out += " " } else { out.unicodeScalars.append(ch) }
            }
        }
        return out
    }

    /// A dotted name (`bottom.contacts.ledge`) escaped, free to wrap after each dot on a narrow screen.
    public static func breakable(_ s: String) -> String {
        // By UTF-8 bytes: a "." is one byte and never part of another character's encoding (and
        // cheaper than Foundation's replacingOccurrences on the many columns of a big world).
        let escaped = escape(s)
        guard escaped.utf8.contains(UInt8(ascii: ".")) else { return escaped }
        var out: [UInt8] = []
        out.reserveCapacity(escaped.utf8.count + 10)
        for byte in escaped.utf8 {
            out.append(byte)
            if byte == UInt8(ascii: ".") { out.append(contentsOf: "<wbr>".utf8) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    // MARK: components

    /// One line of a table of contents: a link to the section `id`, and optionally links to its
    /// subsections (`label`s are dotted names, shown breakable).
    public struct TOCEntry: Sendable {
        public var id: String
        public var title: String
        public var links: [(id: String, label: String)]
        public init(id: String, title: String, links: [(id: String, label: String)] = []) {
            self.id = id; self.title = title; self.links = links
        }
    }

    /// The table of contents: `<nav class="toc" id="toc">`, one list item per entry.
    public static func toc(_ entries: [TOCEntry]) -> String {
        var h = "<nav class=\"toc\" id=\"toc\"><ul>\n"
        for e in entries {
            h += "<li><a href=\"#\(escape(e.id))\">\(escape(e.title))</a>"
            if !e.links.isEmpty {
                h += ": " + e.links.map { "<a href=\"#\(escape($0.id))\">\(breakable($0.label))</a>" }.joined(separator: " · ")
            }
            h += "</li>\n"
        }
        return h + "</ul></nav>\n"
    }

    /// A figure: a picture (an SVG, or HTML holding one) and its caption, escaped here. `class`:
    /// `wide`, `full` or `world` (see the stylesheet), or none. Figures side by side sit in a
    /// `<div class="charts">`.
    public static func figure(_ picture: String, caption: String, class cls: String = "") -> String {
        figure(picture, captionHTML: escape(caption), class: cls)
    }

    /// A figure whose caption is HTML already (escaped where it is content).
    public static func figure(_ picture: String, captionHTML: String, class cls: String = "") -> String {
        "<figure\(cls.isEmpty ? "" : " class=\"\(cls)\"")>\n\(picture)<figcaption>\(captionHTML)</figcaption>\n</figure>\n"
    }

    /// A paragraph of secondary text, escaped; nothing for empty text.
    public static func note(_ s: String) -> String { s.isEmpty ? "" : "<p class=\"note\">\(escape(s))</p>\n" }

    /// A table that scrolls inside its own box on a narrow screen: a header row (dotted names,
    /// breakable) and `rows`, each a whole `<tr>…</tr>` in HTML (see `row`). `class`: `stack`
    /// (cells stacked on a narrow screen) or none.
    public static func table(_ head: [String], _ rows: [String], class cls: String = "") -> String {
        "<div class=\"tw\"><table\(cls.isEmpty ? "" : " class=\"\(cls)\"")>\n<tr>" + head.map { "<th>\(breakable($0))</th>" }.joined() + "</tr>\n"
            + rows.joined() + "</table></div>\n"
    }

    /// One table row of text cells, escaped; the cells at `numeric` right-aligned as numbers.
    public static func row(_ cells: [String], numeric: Set<Int> = []) -> String {
        "<tr>" + cells.enumerated().map { i, c in numeric.contains(i) ? "<td class=\"n\">\(escape(c))</td>" : "<td>\(escape(c))</td>" }.joined() + "</tr>\n"
    }

    /// A two-column table of labels and values (a run's or a machine's particulars).
    public static func keyValues(_ rows: [(String, String)]) -> String {
        "<div class=\"tw\"><table class=\"kv\">\n" + rows.map { "<tr><th>\(escape($0.0))</th><td>\(escape($0.1))</td></tr>" }.joined(separator: "\n")
            + "\n</table></div>\n"
    }
}
