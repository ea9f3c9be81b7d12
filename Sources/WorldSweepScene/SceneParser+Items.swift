import Foundation
import WorldSweep
import Yams

// The scene's items: shapes, centres, sizes and paths, each name defined once.
extension SceneParser {
    mutating func parseItems(_ node: Node) throws(SceneError) -> [ItemSpec] {
        let entries = try reader.namedEntries(node, what: "'items'", expected: "a mapping of item names to items")
        guard !entries.isEmpty else { throw reader.error(node, "expected at least one item in 'items'") }
        var items: [ItemSpec] = []
        for entry in entries {
            let name = try reader.name(entry.keyNode, "an item name")
            if name == SceneFile.referenceBoundsPartner {
                throw reader.error(entry.keyNode, "the name '\(name)' is reserved for the reference-bounds boundary")
            }
            try define(name, noun: "item", at: entry.keyNode)
            items.append(try parseItem(entry, name: name))
        }
        return items
    }

    private func parseItem(_ entry: MappingEntry, name: String) throws(SceneError) -> ItemSpec {
        let item = try reader.mapping(entry.value, owner: "item '\(name)'", ownerLocation: entry.keyNode.location,
                                      expected: "a mapping with 'center' and 'size'",
                                      allowed: SceneFile.itemFileKeys)
        let center = try reader.point(try reader.required("center", in: item), "'center'")
        let sizeValues = try reader.numbers(try reader.required("size", in: item), "'size'",
                                            labels: ["width", "height"], .length)
        let angle = try item["angle"].map { node throws(SceneError) in try reader.number(node, "'angle'") } ?? 0
        var shape = try item["shape"].map { node throws(SceneError) in
            try reader.choice(node, "'shape'", ItemShape.self)
        }
        var path: [Point] = []
        if let pathEntry = item.entry("path") {
            if let shape, shape != .path {
                throw reader.error(pathEntry.keyNode, "'path' needs 'shape: path' (item '\(name)' has shape \(shape.rawValue))")
            }
            shape = .path
            path = try parsePointList(pathEntry.value, "'path'")
            if let problem = ShapeGeometry.convexityProblem(path) {
                throw reader.error(pathEntry.value, "item '\(name)' has an unusable 'path': \(problem)")
            }
        } else if shape == .path {
            throw reader.error(item["shape"]!, "'shape: path' needs a 'path' in item '\(name)' "
                               + "(convex vertices [[x, y], ...] relative to the centre)")
        }
        return ItemSpec(name: name, center: center, size: Size(width: sizeValues[0], height: sizeValues[1]),
                        angle: angle, shape: shape ?? .rectangle, path: path, location: entry.keyNode.location)
    }

    func parsePointList(_ node: Node, _ what: String) throws(SceneError) -> [Point] {
        let elements = try reader.list(node, what, expected: "a list of points [[x, y], ...]")
        var points: [Point] = []
        for (index, element) in elements.enumerated() {
            points.append(try reader.point(element, "\(what) point \(index + 1)"))
        }
        return points
    }
}
