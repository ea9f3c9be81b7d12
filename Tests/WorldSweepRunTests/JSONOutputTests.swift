import Foundation
import Testing
import WorldSweepRun

/// The one JSON string writer: files keep JSONEncoder's bytes (`<` as is); the server's replies,
/// which pages may hold inside a `<script>`, get `<` as \u003c. Either way the text reads back.
struct JSONOutputTests {
    static let samples = ["", "plain", "a\"b\\c", "tab\there\nnew\rline", "\u{08}\u{0C}\u{01}\u{1F}", "</script><b>",
                          "élan ≥ 2 → 漢字 🎯", "a/b", "x<y<z"]

    @Test func filesSpellStringsAsBefore() {
        // Written out by hand from JSON's grammar, as JSONEncoder spells them.
        #expect(JSONOutput.quoted("a\"b\\c") == #""a\"b\\c""#)
        #expect(JSONOutput.quoted("tab\there\nnew\rline") == #""tab\there\nnew\rline""#)
        #expect(JSONOutput.quoted("\u{08}\u{0C}\u{01}\u{1F}") == #""\b\f\u0001\u001f""#)
        #expect(JSONOutput.quoted("</script><b>") == #""</script><b>""#)
        #expect(JSONOutput.quoted("a/b") == #""a/b""#)
    }

    @Test func scriptSafeStringsHaveNoLessThan() {
        #expect(JSONOutput.quoted("</script><b>", escapesLessThan: true) == #""\u003c/script>\u003cb>""#)
        #expect(JSONOutput.quoted("x<y<z", escapesLessThan: true) == #""x\u003cy\u003cz""#)
        for s in Self.samples {
            #expect(!JSONOutput.quoted(s, escapesLessThan: true).contains("<"))
        }
    }

    @Test(arguments: [false, true]) func everyStringReadsBack(escapesLessThan: Bool) throws {
        for s in Self.samples {
            let text = "[" + JSONOutput.quoted(s, escapesLessThan: escapesLessThan) + "]"
            #expect(try JSONDecoder().decode([String].self, from: Data(text.utf8)) == [s])
        }
    }

    @Test func appendsToWhatIsThere() {
        var out = JSONOutput(bytes: Array("[".utf8), escapesLessThan: true)
        out.string(utf8: "a<b".utf8)
        #expect(out.text == #"["a\u003cb""#)
    }
}
