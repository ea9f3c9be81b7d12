import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// A page's shell read back: what its head declares, parsed as XML (the head's void `<meta>`
/// elements closed first), so tests check the page's structure rather than its text.
public struct PageShell {
    public var lang: String?
    public var charset: String?
    public var viewport: String?
    /// The title as a reader sees it (entities decoded).
    public var title: String?
    /// The head's `<style>` elements' text, in order, without the line breaks around it.
    public var styles: [String]
    /// How many times the whole page declares a doctype, and `<style>` elements anywhere.
    public var doctypes: Int
    public var stylesInPage: Int

    public struct Malformed: Error, CustomStringConvertible {
        public var description: String
    }

    /// Reads `html`'s shell: a leading `<!DOCTYPE html>`, `<html …>`, and one `<head>…</head>`.
    public init(_ html: String) throws {
        guard html.hasPrefix("<!DOCTYPE html>\n") else { throw Malformed(description: "no leading <!DOCTYPE html>") }
        guard let open = html.range(of: "<html"), let headEnd = html.range(of: "</head>") else {
            throw Malformed(description: "no <html> or </head>")
        }
        var head = String(html[open.lowerBound..<headEnd.upperBound]) + "</html>"
        // HTML's void elements, closed so that the head is XML.
        head = head.replacingOccurrences(of: #"<meta([^>]*[^/])>"#, with: "<meta$1/>", options: .regularExpression)
        let root = try XMLDocument(xmlString: head).rootElement()
        guard let root, root.name == "html" else { throw Malformed(description: "the head is not inside <html>") }
        lang = root.attribute(forName: "lang")?.stringValue
        let headElement = root.elements(forName: "head").first
        let metas = headElement?.elements(forName: "meta") ?? []
        charset = metas.lazy.compactMap { $0.attribute(forName: "charset")?.stringValue }.first
        viewport = metas.first { $0.attribute(forName: "name")?.stringValue == "viewport" }?
            .attribute(forName: "content")?.stringValue
        title = headElement?.elements(forName: "title").first?.stringValue
        styles = (headElement?.elements(forName: "style") ?? []).compactMap(\.stringValue)
            .map { $0.trimmingCharacters(in: .newlines) }
        doctypes = html.components(separatedBy: "<!DOCTYPE").count - 1 + html.components(separatedBy: "<!doctype").count - 1
        stylesInPage = html.components(separatedBy: "<style").count - 1
    }
}
