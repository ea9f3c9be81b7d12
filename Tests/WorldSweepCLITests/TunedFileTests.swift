import Foundation
import TestScratch
import Testing
@testable import WorldSweepCLI
import WorldSweepScene

/// best.yaml carries every found value at its key however the file writes the key, and nothing else changes.
@Suite(.serialized) struct TunedFileTests {
    /// The tunable keys of the round trip: the two numbers of a pair, two keys of one flow line, a
    /// push's and an attachment's offsets, a snap's point, a circle's radius and a rectangle's width.
    static let paths = ["card.center.x", "card.center.y", "bouncy.elasticity", "bouncy.friction", "shove.offset.card.x",
                        "rope.offset.card.y", "hold.point.x", "pull.region.radius", "push-zone.region.width"]
    static let ranges = ["[150, 170]", "[90, 110]", "[0.1, 0.9]", "[0.1, 0.9]", "[-5, 5]", "[-5, 5]", "[150, 170]",
                         "[40, 80]", "[40, 80]"]

    static func tuneSection(_ paths: [String] = paths, _ ranges: [String] = ranges) -> String {
        "tune:\n  parameters:\n" + zip(paths, ranges).map { "    \($0): \($1)\n" }.joined()
            + "  want: {card.y: minimize}\n  budget: 16\n  population: 8\n"
    }

    /// The same scene written in flow style.
    static let flow = """
        name: written
        world: {bounds: [320, 568], ticks: 20}
        items:
          card: {center: [160, 100], size: [40, 40]}
          ball: {center: [100, 300], size: [20, 20], shape: ellipse}
        behaviors:
          fall: {type: gravity, items: [card, ball]}
          bouncy: {type: item, items: [card], elasticity: 0.5, friction: 0.3, density: 0.5}
          shove: {type: push, items: [card], mode: continuous, magnitude: 0.1, offset: {card: [1, 2]}}
          rope: {type: attachment, items: [ball, card], offset: {card: [0, 3]}}
          hold: {type: snap, items: [ball], point: [160, 300], damping: 0.5}
          pull: {type: field, kind: radial_gravity, items: [ball], position: [160, 284], strength: 1, region: {circle: 60}}
          push-zone: {type: field, kind: linear_gravity, items: [card], direction: [0, 1], region: {inverse: {rectangle: [50, 70]}}}

        """

    /// Block style, nested, with comments.
    static let block = """
        name: written
        world:
          bounds: [320, 568]
          ticks: 20
        items:
          card:
            center:
              - 160   # x
              - 100
            size: [40, 40]
          ball: {center: [100, 300], size: [20, 20], shape: ellipse}
        behaviors:
          fall: {type: gravity, items: [card, ball]}
          bouncy:
            type: item
            items: [card]
            elasticity: 0.5
            friction: 0.3
            density: 0.5
          shove:
            type: push
            items: [card]
            mode: continuous
            magnitude: 0.1
            offset:
              card: [1, 2]
          rope:
            type: attachment
            items: [ball, card]
            offset:
              card:
                - 0
                - 3
          hold: {type: snap, items: [ball], point: [160, 300], damping: 0.5}
          pull:
            type: field
            kind: radial_gravity
            items: [ball]
            position: [160, 284]
            strength: 1
            region:
              circle: 60
          push-zone:
            type: field
            kind: linear_gravity
            items: [card]
            direction: [0, 1]
            region: {inverse: {rectangle: [50, 70]}}

        """

    /// Anchors, aliases and tags on tuned values: `density` keeps the anchored 0.5 it was searched with.
    static let anchored = flow
        .replacingOccurrences(of: "elasticity: 0.5, friction: 0.3, density: 0.5", with: "elasticity: &e 0.5, friction: !!float 0.3, density: *e")
        .replacingOccurrences(of: "point: [160, 300]", with: "point: [&px 160, *px]")
        .replacingOccurrences(of: "circle: 60}", with: "circle: !!float 60}")

    static func variants() -> [(name: String, text: String)] {
        let tune = tuneSection()
        return [("flow", flow + tune), ("block", block + tune), ("anchored", anchored + tune),
                ("crlf", (block + tune).replacingOccurrences(of: "\n", with: "\r\n")),
                ("bom", "\u{FEFF}" + flow + tune),
                ("tune-first", flow.replacingOccurrences(of: "world:", with: tune + "world:"))]
    }

    private func tuned(_ name: String, _ text: String) throws -> (out: String, values: [Double], best: SceneFile) {
        let path = Scratch.directory("tuned-\(name)") + "/t.yaml"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let out = Scratch.directory("tuned-\(name)-out", create: false)
        let (code, message) = WorldSweepCommand.outcome(["tune", path, "--out", out, "--quiet"])
        #expect(code == 0, "\(name): \(message ?? "")")
        // JSONDecoder reads the shortest digits back to the same Double (JSONSerialization may miss the last bit).
        struct Answer: Decodable { struct Best: Decodable { var values: [Double] }; var best: Best }
        let values = try JSONDecoder().decode(Answer.self, from: Data(contentsOf: URL(fileURLWithPath: "\(out)/tune.json"))).best.values
        let best = try SceneFile.load(path: "\(out)/best.yaml")
        return (out, values, best)
    }

    @Test(arguments: variants().map(\.name)) func everyTunableKeyWrittenEveryWayCarriesItsValue(_ name: String) throws {
        let text = Self.variants().first { $0.name == name }!.text
        let original = try SceneFile.parse(yaml: text.replacingOccurrences(of: "\u{FEFF}", with: ""), path: "t.yaml")
        let (out, values, best) = try tuned(name, text)
        #expect(best.tune == nil, "\(name): best.yaml keeps its tune section")
        for (path, value) in zip(Self.paths, values) {
            let written = try best.value(at: path)
            #expect(written == value, "\(name): \(path) reads \(written), the search found \(value)")
        }
        // What was not tuned reads as before (an alias of a tuned anchor keeps the anchored value).
        for path in ["bouncy.density", "card.size.width", "hold.point.y", "hold.damping", "shove.offset.card.y",
                     "rope.offset.card.x", "push-zone.region.height", "pull.strength"] {
            #expect(try best.value(at: path) == original.value(at: path), "\(name): \(path)")
        }
        let run = Scratch.directory("tuned-\(name)-run", create: false)
        let (code, message) = WorldSweepCommand.outcome(["run", "\(out)/best.yaml", "--out", run, "--quiet"])
        #expect(code == 0, "\(name): \(message ?? "")")
    }

    /// A key written through an alias is tuned at the alias: the anchored value stays for its other users.
    @Test func aKeyWrittenAsAnAliasIsTunedThere() throws {
        let text = Self.anchored + Self.tuneSection(["bouncy.density"], ["[0.2, 0.9]"])
        let (_, values, best) = try tuned("alias", text)
        #expect(try best.value(at: "bouncy.density") == values[0])
        #expect(try best.value(at: "bouncy.elasticity") == 0.5)
    }
}
