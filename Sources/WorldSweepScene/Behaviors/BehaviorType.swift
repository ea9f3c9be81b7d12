import Foundation
import WorldSweep

// A behavior type (`type: gravity`, `type: snap`, …) is declared once, in one file of this folder:
// its file keys with their defaults, units, values and docs (the parser, sweep paths, `--set` and
// docs/format.md's table read them), how it parses, its numeric keys, how it compiles into a plan
// input, which of its numbers a world of a sweep sets by value in a template plan, how it becomes
// a live behavior, its API behavior's file and the engine files that run it. Everything else reaches a behavior through
// `BehaviorKind.type` and knows no type by name.

/// One key a behavior type takes in a file, as docs/format.md's table shows it.
struct BehaviorKey: Sendable {
    let key: String
    /// What an unset key reads as ("required" where the file must give it, "none" where unset is absent).
    let defaultValue: String
    /// "—" for a pure number or a key that is not a quantity.
    let unit: String
    /// The values it takes: for numbers the rule's interval, so the docs say what the parser checks.
    let values: String
    let doc: String
    /// A number's rule (for a pair, each part's); nil for a flag, a choice, a mapping.
    let rule: ValueRule?
    /// A pair's parts as sweep paths name them (`KEY.x`, `KEY.y`); empty for anything else.
    var parts: [String] = []

    static func number(_ key: String, default defaultValue: String, unit: String = "—", _ rule: ValueRule,
                       _ doc: String) -> BehaviorKey {
        BehaviorKey(key: key, defaultValue: defaultValue, unit: unit, values: rule.intervalText, doc: doc, rule: rule)
    }

    /// Two numbers `[a, b]` (`written` as the docs show them), swept as `KEY.a` and `KEY.b` (`parts`).
    static func pair(_ key: String, default defaultValue: String, unit: String = "—", rule: ValueRule = .any,
                     written: String = "[x, y]", parts: [String] = ["x", "y"], _ doc: String) -> BehaviorKey {
        BehaviorKey(key: key, defaultValue: defaultValue, unit: unit, values: "\(written), each " + rule.intervalText, doc: doc,
                    rule: rule, parts: parts)
    }

    static func other(_ key: String, default defaultValue: String, unit: String = "—", values: String, _ doc: String) -> BehaviorKey {
        BehaviorKey(key: key, defaultValue: defaultValue, unit: unit, values: values, doc: doc, rule: nil)
    }

    /// The row docs/format.md shows: key, default, unit, values, meaning (a `|` in a cell escaped).
    var documentationRow: String {
        let cells = [defaultValue, unit, values, doc].map { $0.replacingOccurrences(of: "|", with: "\\|") }
        return "| `\(key)` | " + cells.joined(separator: " | ") + " |"
    }
}

/// What compiling one behavior into a plan input needs to know of the scene.
struct PlanContext {
    let scene: SceneFile
    /// The behavior's items as item indices, as the file lists them.
    let listed: [Int]
    /// The same, each once, first mention first (as `ItemsBehavior` keeps them).
    let members: [Int]
    let indexOfItem: [String: Int]
}

/// One behavior type's declaration. `Spec` is the value a file gives (`BehaviorKind`'s payload).
protocol BehaviorType {
    associatedtype Spec
    /// The `type:` value in a file.
    static var name: String { get }
    /// What the behavior's `items` are, for the docs.
    static var itemsDoc: String { get }
    /// Its keys besides `type` and `items`, in the docs' order.
    static var keys: [BehaviorKey] { get }
    /// Its API behavior's file (under Sources/WorldSweep/): the live behavior, which describes
    /// itself as a plan value, and that value (a `PlanBehavior`) with its compile.
    static var apiFile: String { get }
    /// The files of the physics that run it (under Sources/WorldSweep/), which both engines call;
    /// shared with the types whose physics it reuses.
    static var kernels: [String] { get }
    /// Whether a sweep over a scene with this behavior may make its worlds by setting values in a
    /// template plan: false when its compiled form reads more than its own numbers (an attachment
    /// measures its items, a field copies charges).
    static var plansByValue: Bool { get }

    static func spec(of kind: BehaviorKind) -> Spec?
    static func parse(_ fields: CheckedMapping, itemNames: [String], items: [ItemSpec], parser: SceneParser) throws(SceneError) -> BehaviorKind
    /// The numeric keys `NAME.KEY` may address on `behavior`, with their rules.
    static func numericKeys(of behavior: BehaviorSpec) -> [(key: String, rule: ValueRule)]
    /// The number at one of its numeric keys, defaults included.
    static func value(_ key: String, of behavior: BehaviorSpec, in scene: SceneFile) -> Double
    /// Sets one of its numeric keys (the value already checked against the key's rule).
    static func set(_ value: Double, _ key: String, of kind: inout BehaviorKind)
    /// Why its numbers break a rule between keys (a range's min > max), or nil.
    static func relationProblem(of kind: BehaviorKind, path: String) -> String?
    static func planBehavior(_ behavior: BehaviorSpec, _ context: PlanContext) -> PlanInput.Behavior
    static func makeBehavior(_ behavior: BehaviorSpec, items: [View]) -> DynamicBehavior
    /// Where a world's number at `key` of behavior `index` lands in a template plan, or nil when
    /// only a compile makes it.
    static func slot(forKey key: String, behavior index: Int) -> PlanSlot?
    /// Sets the numbers at one of its slots from `world` into `plan` (or the world's `gravity`).
    static func setValues(at slot: PlanSlot, of world: SceneFile, template: PlanInput, into plan: inout WorldPlan,
                          gravity: inout Vector?)
}

extension BehaviorType {
    static func relationProblem(of kind: BehaviorKind, path: String) -> String? { nil }
    static func slot(forKey key: String, behavior index: Int) -> PlanSlot? { nil }
    static func setValues(at slot: PlanSlot, of world: SceneFile, template: PlanInput, into plan: inout WorldPlan,
                          gravity: inout Vector?) {}
    /// Every key the type takes in a file.
    static var fileKeys: [String] { ["type", "items"] + keys.map(\.key) }

    static func key(_ name: String) -> BehaviorKey {
        guard let found = keys.first(where: { $0.key == name }) else { preconditionFailure("\(self.name) declares no key '\(name)'") }
        return found
    }

    /// A number's rule as declared.
    static func rule(_ name: String) -> ValueRule { key(name).rule! }

    /// The table docs/format.md shows for the type, under its `<!-- keys: behavior.NAME -->` marker.
    static var documentationTable: String {
        (["| key | default | unit | values | what |", "|---|---|---|---|---|", "| `type` | | | `\(name)` | |",
          "| `items` | | | item names | \(itemsDoc) |"] + keys.map(\.documentationRow)).joined(separator: "\n")
    }
}
