import Foundation

/// libyaml's syntax problems said in the file format's words: what is wrong where the error
/// points, and what opened the construct that is not finished (its line and column). A problem
/// not listed here keeps libyaml's own text, after "invalid YAML syntax:".
enum YAMLSyntaxWords {
    /// `problem` and `context` as libyaml words them; `opened` is where the context began.
    static func sentence(problem: String, context: String?, opened: String?) -> String {
        let at = opened.map { " at \($0)" } ?? ""
        switch problem {
        case "did not find expected ',' or '}'":
            return "a flow mapping opened\(at) is not closed: expected ',' or '}'"
        case "did not find expected ',' or ']'":
            return "a flow list opened\(at) is not closed: expected ',' or ']'"
        case "mapping values are not allowed in this context":
            return "unexpected ': ' (a colon and a space start a key here): quote a value that holds ': ', "
                + "or put a nested mapping on its own indented lines"
        case "mapping keys are not allowed in this context":
            return "unexpected '? ' (a complex key) here; write the key as plain text"
        case "did not find expected key":
            return "expected a key of the mapping that starts\(at) (is this line indented as its neighbours?)"
        case "did not find expected '-' indicator":
            return "expected a '- ' item of the list that starts\(at) (is this line indented as its neighbours?)"
        case "could not find expected ':'":
            return "expected ':' after the key that starts\(at) (a key and its value are written 'key: value')"
        case "found character that cannot start any token":
            return "this character cannot start a value; quote the text, or remove the character"
        case "found a tab character that violates indentation", "found a tab character where an indentation space is expected":
            return "a tab where YAML wants indentation; indent with spaces"
        case "found unexpected end of stream":
            return context == "while scanning a quoted scalar" ? "a quoted text opened\(at) is not closed: expected its closing quote"
                : "the file ends inside something opened\(at) that is not closed"
        case "found unknown escape character":
            return "unknown escape in the quoted text opened\(at) (write '\\\\' for a backslash, or use single quotes)"
        case "did not find expected node content":
            return "expected a value here (inside the flow collection opened\(at))"
        case "block sequence entries are not allowed in this context":
            return "a '- ' list item cannot start here; write a list under its key on its own indented lines"
        case "found undefined alias":
            return "this alias (*NAME) names no anchor (&NAME) written before it"
        case "did not find expected <document start>":
            return "expected a mapping with 'name', 'world' and 'items'; this text continues after a complete value "
                + "(is a line indented less than it should be?)"
        case "found invalid Unicode character escape code", "did not find expected hexdecimal number":
            return "an escape (\\x, \\u or \\U) in the quoted text opened\(at) is not a valid character code"
        case "did not find expected whitespace or line break", "did not find expected whitespace":
            return "expected a space or the end of the line after this (after an anchor, a tag or a '|' or '>')"
        case "found unexpected non-alphabetical character", "did not find URI escaped octet":
            return "a '%' directive or tag this reader does not take; remove it"
        case "found unexpected ':'":
            return "unexpected ':' here; quote a value that holds ':'"
        case "did not find expected comment or line break":
            return "expected the end of the line here (something follows a complete value)"
        case "did not find expected alphabetic or numeric character":
            return "expected a name after '&' or '*' (an anchor or an alias)" + (opened.map { " begun at \($0)" } ?? "")
        case "found unexpected document indicator":
            return "a line starting '---' or '...' inside a value; a sweep file is one document"
        case "found incompatible YAML document", "found duplicate %YAML directive", "did not find expected version number",
             "found extremely long version number", "did not find expected digit or '.' character":
            return "a %YAML directive this reader does not take; remove it (sweep files need none)"
        case "found an incorrect leading UTF-8 octet", "found an incorrect trailing UTF-8 octet":
            return "expected UTF-8 text"
        default:
            if problem.contains("yaml_set_max_nest_level") { return YAMLProblem.ourWords(problem) }
            if problem.contains("tag") || problem.contains("'!'") || problem.contains("URI") || problem.contains("'>'") {
                return "a tag (a '!' before a value) this reader does not take; remove it" + (opened.map { " (begun at \($0))" } ?? "")
            }
            if problem.contains("directive") {
                return "a '%' directive this reader does not take; remove it (sweep files need none)"
            }
            if context == "while scanning a block scalar" || problem.contains("indentation indicator") {
                return "a block text ('|' or '>') opened\(at) is not written as YAML wants: its lines go below it, indented"
            }
            return "invalid YAML syntax: \(problem)" + (context.map { " (\($0)\(at))" } ?? "")
        }
    }
}
