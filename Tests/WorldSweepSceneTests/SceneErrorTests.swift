import Testing
@testable import WorldSweepScene

// Line numbers refer to `minimalScene`:
//  1 name: t
//  2 world:
//  3   bounds: [320, 568]
//  4   duration: 1
//  5 items:
//  6   top: {center: [100, 0], size: [50, 50]}
//  7   bottom: {center: [100, 50], size: [50, 50]}
//  8 behaviors:
//  9   fall: {type: gravity, items: [top, bottom]}
// 10 (lines added by a test)

@Suite("Scene file errors: where and what")
struct SceneErrorTests {
    @Test func minimalSceneIsValid() throws {
        let scene = try parse(minimalScene)
        #expect(scene.items.count == 2)
    }

    // MARK: syntax

    @Test func badYAMLSyntax() {
        expectError(minimalScene(line: 2, "world: bounds: [320, 568]"), at: 2, 14,
                    "unexpected ': ' (a colon and a space start a key here)")
    }

    @Test func unclosedFlowSequence() {
        expectError(minimalScene(line: 3, "  bounds: [320, 568"), at: 4, 11,
                    "a flow list opened at 3:11 is not closed: expected ',' or ']'")
    }

    @Test func unclosedFlowMapping() {
        expectError(minimalScene(line: 6, "  top: {center: [100, 0], size: [50, 50]"), at: 7, 3,
                    "a flow mapping opened at 6:8 is not closed: expected ',' or '}'")
    }

    @Test func tabIndentation() {
        expectError(minimalScene(line: 6, "\ttop: {center: [100, 0], size: [50, 50]}"), at: 6, 1,
                    "this character cannot start a value", "indent with spaces, not tabs")
    }

    /// Every syntax error is said in the format's words, never in libyaml's.
    @Test(arguments: ["world: bounds: [320, 568]", "  bounds: [320, 568", "  top: {center: [100, 0], size: [50, 50]",
                      "\ttop: 1", "  top: \"unclosed", "  top: [1, 2]]", " bad: 1", "  - 1", "  top: *nowhere",
                      "  top: \"\\q\"", "  top: {a: 1, b}", "  top: [1, {a: 2]", "? [a]: b", "  top: !<x 1",
                      "  top: &", "  top: |9", "%YAML 1.1", "  top: {a: 1}}", "---\nname: u"])
    func syntaxErrorsAreInOurWords(_ line: String) {
        do {
            _ = try SceneFile.parse(yaml: minimalScene(line: 6, line), path: "t.yaml")
            Issue.record("\(line) parsed")
        } catch {
            for phrase in ["did not find", "while parsing", "while scanning", "not allowed in this context", "could not find",
                           "cannot start any token", "found unexpected", "found undefined"] {
                #expect(!error.message.contains(phrase), "\(line): \(error.message)")
            }
        }
    }

    @Test func duplicateKeyInOneMapping() {
        expectError(minimalScene(line: 7, "  top: {center: [100, 50], size: [50, 50]}"), at: 6, 3,
                    "key 'top' appears more than once")
    }

    @Test func emptyFile() {
        expectError("# nothing here\n", at: 1, 1, "got an empty file")
    }

    @Test func topLevelNotAMapping() {
        expectError("- name: t\n", at: 1, 1, "expected a mapping with 'name', 'world' and 'items'", "got a list")
    }

    // MARK: unknown keys and types

    static let unknownKeys: [Refusal] = [
        Refusal("unknownTopLevelKey", minimalScene(adding: "metric: [rest_time]"), at: 10, 1,
            "unknown key 'metric' in the scene file (expected one of: name, description, world, items, "
            + "behaviors, sweep, metrics, measure, tune)", "did you mean 'metrics'?"),
        Refusal("unknownWorldKey", minimalScene(line: 4, "  duraton: 1"), at: 4, 3, "unknown key 'duraton' in 'world'",
            "did you mean 'duration'?"),
        Refusal("unknownItemKey", minimalScene(line: 6, "  top: {center: [100, 0], size: [50, 50], mass: 2}"), at: 6, 43,
            "unknown key 'mass' in item 'top' (expected one of: center, size, angle, shape, path)"),
        Refusal("unknownGravityKey", minimalScene(line: 9, "  fall: {type: gravity, items: [top, bottom], strength: 2}"), at: 9, 47,
            "unknown key 'strength' in gravity behavior 'fall' (expected one of: type, items, angle, magnitude, direction)"),
        Refusal("unknownCollisionKey", minimalScene(adding: "  walls: {type: collision, items: [top], bounds: true}"), at: 10, 42,
            "unknown key 'bounds' in collision behavior 'walls' (expected one of: type, items, mode, "
            + "reference_bounds, boundaries)"),
        Refusal("unknownItemBehaviorKey", minimalScene(adding: "  bouncy: {type: item, items: [bottom], elastcity: 0.9}"), at: 10, 41,
            "unknown key 'elastcity' in item behavior 'bouncy' (expected one of: type, items, elasticity, friction, "
            + "density, resistance, angular_resistance, allows_rotation, anchored, charge, linear_velocity, "
            + "angular_velocity)", "did you mean 'elasticity'?"),
        Refusal("unknownPushKey", minimalScene(adding: "  shove: {type: push, items: [top], mode: continuous, force: 1}"), at: 10, 55,
            "unknown key 'force' in push behavior 'shove' (expected one of: type, items, mode, magnitude, angle, "
            + "direction, active, offset)"),
        Refusal("unknownBoundaryKey", minimalScene(adding: "  walls:", "    type: collision", "    items: [top]", "    boundaries:",
            "      ledge: {from: [0, 1], too: [5, 1]}"), at: 14, 29,
            "unknown key 'too' in boundary 'ledge' (expected one of: from, to, path)"),
        Refusal("unknownSweepKey", minimalScene(adding: "sweep:", "  replica: 3"), at: 11, 3, "unknown key 'replica' in 'sweep'",
            "did you mean 'replicas'?"),
        Refusal("unknownBehaviorType", minimalScene(line: 9, "  fall: {type: gravty, items: [top, bottom]}"), at: 9, 16,
            "unknown behavior type \"gravty\" for behavior 'fall' (expected one of: gravity, collision, item, push, attachment, snap, field)",
            "did you mean 'gravity'?"),
    ]

    @Test("an unknown key or type is refused at its place, listing what is expected", arguments: unknownKeys)
    func unknownKey(_ refusal: Refusal) {
        refusal.check()
    }

    // MARK: names

    @Test func unknownItemInBehavior() {
        expectError(minimalScene(line: 9, "  fall: {type: gravity, items: [topp, bottom]}"), at: 9, 33,
                    "behavior 'fall' names unknown item 'topp'", "did you mean 'top'?")
    }

    @Test func behaviorNamedAsItemInItemsList() {
        expectError(minimalScene(line: 9, "  fall: {type: gravity, items: [top, fall]}"), at: 9, 38,
                    "behavior 'fall' names 'fall', which is a behavior, not an item")
    }

    @Test func itemListedTwice() {
        expectError(minimalScene(line: 9, "  fall: {type: gravity, items: [top, top]}"), at: 9, 38,
                    "behavior 'fall' lists item 'top' more than once")
    }

    @Test func duplicateNameAcrossItemsAndBehaviors() {
        expectError(minimalScene(adding: "  top: {type: item, items: [top], elasticity: 1}"), at: 10, 3,
                    "name 'top' is already used by the item at 6:3", "share one namespace")
    }

    @Test func badScenePattern() {
        expectError(minimalScene(line: 1, "name: twin drop"), at: 1, 7,
                    "expected a name made of letters, digits, '_' and '-' ([A-Za-z0-9_-]+) for 'name', got \"twin drop\"")
    }

    @Test func badItemNamePattern() {
        expectError(minimalScene(line: 7, "  bot.tom: {center: [100, 50], size: [50, 50]}"), at: 7, 3,
                    "expected a name made of letters, digits, '_' and '-'", "for an item name, got \"bot.tom\"")
    }

    @Test func reservedItemName() {
        expectError(minimalScene(line: 7, "  bounds: {center: [100, 50], size: [50, 50]}"), at: 7, 3,
                    "the name 'bounds' is reserved for the reference-bounds boundary")
    }

    @Test func reservedBoundaryIdentifier() {
        expectError(minimalScene(adding: "  walls: {type: collision, items: [top], boundaries: {bounds: {from: [0, 0], to: [1, 0]}}}"),
                    at: 10, 55, "the identifier 'bounds' is reserved")
    }

    @Test func pushOffsetForAnItemNotPushed() {
        expectError(minimalScene(adding: "  shove: {type: push, items: [top], mode: continuous, offset: {bottom: [1, 2]}}"),
                    at: 10, 64, "push behavior 'shove' sets an offset for 'bottom', which is not one of its items (top)")
    }

    // MARK: missing keys

    @Test func missingName() {
        expectError(minimalScene(line: 1, "description: no name"), at: 1, 1, "missing required key 'name' in the scene file")
    }

    @Test func missingBounds() {
        expectError(minimalScene(line: 3, "  tick: 1/60"), at: 2, 1, "missing required key 'bounds' in 'world'")
    }

    @Test func missingItems() {
        expectError("name: t\nworld: {bounds: [1, 1], ticks: 1}\n", at: 1, 1, "missing required key 'items' in the scene file")
    }

    @Test func missingWorld() {
        expectError("name: t\nitems: {a: {center: [0, 0], size: [1, 1]}}\n", at: 1, 1, "missing required key 'world'")
    }

    @Test func missingItemCenter() {
        expectError(minimalScene(line: 6, "  top: {size: [50, 50]}"), at: 6, 3, "missing required key 'center' in item 'top'")
    }

    @Test func missingBehaviorType() {
        expectError(minimalScene(line: 9, "  fall: {items: [top, bottom]}"), at: 9, 3,
                    "missing required key 'type' in behavior 'fall' (expected one of: gravity, collision, item, push, attachment, snap, field)")
    }

    @Test func missingBehaviorItems() {
        expectError(minimalScene(line: 9, "  fall: {type: gravity}"), at: 9, 3,
                    "missing required key 'items' in gravity behavior 'fall'")
    }

    @Test func missingPushMode() {
        expectError(minimalScene(adding: "  shove: {type: push, items: [top], magnitude: 1}"), at: 10, 3,
                    "missing required key 'mode' in push behavior 'shove' (continuous or instantaneous)")
    }

    @Test func bothDurationAndTicks() {
        // `ticks` is now line 4, `duration` line 5: the later one is reported.
        expectError(minimalScene(line: 3, "  bounds: [320, 568]\n  ticks: 60"), at: 5, 3,
                    "give either 'duration' or 'ticks' in 'world', not both")
    }

    @Test func neitherDurationNorTicks() {
        expectError(minimalScene(line: 4, "  tick: 1/60"), at: 2, 1, "missing 'duration' or 'ticks' in 'world'")
    }

    @Test func noItems() {
        expectError("name: t\nworld: {bounds: [1, 1], ticks: 1}\nitems: {}\n", at: 3, 8, "expected at least one item")
    }

    // MARK: values

    @Test func zeroSize() {
        expectError(minimalScene(line: 6, "  top: {center: [100, 0], size: [50, 0]}"), at: 6, 38,
                    "expected a positive number for 'size' height, got 0")
    }

    @Test func negativeSize() {
        expectError(minimalScene(line: 6, "  top: {center: [100, 0], size: [-5, 50]}"), at: 6, 34,
                    "expected a positive number for 'size' width, got -5")
    }

    @Test func nonConvexPath() {
        expectError(minimalScene(line: 6, "  top: {center: [100, 0], size: [50, 50], shape: path, path: [[0, 0], [20, 0], [5, 5], [0, 20]]}"),
                    at: 6, 62, "item 'top' has an unusable 'path': path is not convex")
    }

    @Test func pathWithTooFewVertices() {
        expectError(minimalScene(line: 6, "  top: {center: [100, 0], size: [50, 50], path: [[0, 0], [20, 0]]}"),
                    at: 6, 49, "item 'top' has an unusable 'path': a convex path needs at least 3 vertices, got 2")
    }

    @Test func pathWithRectangleShape() {
        expectError(minimalScene(line: 6, "  top: {center: [100, 0], size: [50, 50], shape: ellipse, path: [[0, 0], [20, 0], [0, 20]]}"),
                    at: 6, 59, "'path' needs 'shape: path' (item 'top' has shape ellipse)")
    }

    @Test func nanValue() {
        expectError(minimalScene(adding: "  bouncy: {type: item, items: [bottom], elasticity: .nan}"), at: 10, 53,
                    "expected a finite number for 'elasticity', got .nan")
    }

    @Test func infiniteValue() {
        expectError(minimalScene(line: 6, "  top: {center: [.inf, 0], size: [50, 50]}"), at: 6, 18,
                    "expected a finite number for 'center' x, got .inf")
    }

    @Test func negativeInfiniteDuration() {
        expectError(minimalScene(line: 4, "  duration: -.inf"), at: 4, 13, "expected a finite number for 'duration', got -.inf")
    }

    @Test func stringWhereNumberExpected() {
        expectError(minimalScene(line: 4, "  duration: \"5\""), at: 4, 13,
                    "expected a positive number for 'duration', got \"5\"")
    }

    @Test func boolWhereNumberExpected() {
        expectError(minimalScene(adding: "  bouncy: {type: item, items: [bottom], elasticity: true}"), at: 10, 53,
                    "expected a non-negative number for 'elasticity', got true")
    }

    @Test func numberWherePairExpected() {
        expectError(minimalScene(line: 6, "  top: {center: [100, 0], size: 50}"), at: 6, 33,
                    "expected [width, height] for 'size', got 50")
    }

    @Test func pairOfWrongLength() {
        expectError(minimalScene(line: 3, "  bounds: [320, 568, 1]"), at: 3, 11,
                    "expected [width, height] for 'bounds', got a list of 3 values")
    }

    @Test func listWhereMappingExpected() {
        expectError(minimalScene(line: 6, "  top: [100, 0]"), at: 6, 8,
                    "expected a mapping with 'center' and 'size' for item 'top', got a list")
    }

    @Test func textWhereBoolExpected() {
        expectError(minimalScene(adding: "  stuck: {type: item, items: [top], anchored: maybe}"), at: 10, 47,
                    "expected true or false for 'anchored', got \"maybe\"")
    }

    @Test func fractionalTicks() {
        expectError(minimalScene(line: 4, "  ticks: 2.5"), at: 4, 10, "expected a positive whole number for 'ticks', got 2.5")
    }

    @Test func badTickString() {
        expectError(minimalScene(line: 3, "  bounds: [320, 568]\n  tick: 1/0"), at: 4, 9,
                    "expected a positive number of seconds or a fraction \"a/b\" for 'tick', got \"1/0\"")
        expectError(minimalScene(line: 3, "  bounds: [320, 568]\n  tick: one/60"), at: 4, 9, "got \"one/60\"")
        expectError(minimalScene(line: 3, "  bounds: [320, 568]\n  tick: -1/60"), at: 4, 9, "got \"-1/60\"")
    }

    @Test func tickLongerThanTheEngineAccepts() {
        expectError(minimalScene(line: 3, "  bounds: [320, 568]\n  tick: 1"), at: 4, 9,
                    "expected a 'tick' of at most 0.5 s", "got 1")
    }

    @Test func durationShorterThanATick() {
        expectError(minimalScene(line: 4, "  duration: 0.001"), at: 4, 13, "expected a 'duration' of at least one tick")
    }

    @Test func unknownCollisionMode() {
        expectError(minimalScene(adding: "  walls: {type: collision, items: [top], mode: all}"), at: 10, 48,
                    "expected one of items, boundaries, everything for 'mode' of collision behavior 'walls', got \"all\"")
    }

    @Test func unknownPushMode() {
        expectError(minimalScene(adding: "  shove: {type: push, items: [top], mode: impulse}"), at: 10, 43,
                    "expected one of continuous, instantaneous for 'mode' of push behavior 'shove', got \"impulse\"")
    }

    @Test func unknownShape() {
        expectError(minimalScene(line: 6, "  top: {center: [100, 0], size: [50, 50], shape: circle}"), at: 6, 50,
                    "expected one of rectangle, ellipse, path for 'shape', got \"circle\"")
    }

    @Test func directionAndAngleTogether() {
        expectError(minimalScene(line: 9, "  fall: {type: gravity, items: [top, bottom], angle: 1, direction: [0, 1]}"),
                    at: 9, 57, "give either 'direction' or 'angle'/'magnitude' in gravity behavior 'fall', not both")
    }

    @Test func degenerateSegment() {
        expectError(minimalScene(adding: "  walls: {type: collision, items: [top], boundaries: {ledge: {from: [0, 1], to: [0, 1]}}}"),
                    at: 10, 81, "expected 'to' to differ from 'from' in boundary 'ledge'")
    }

    @Test func zeroDensity() {
        expectError(minimalScene(adding: "  heavy: {type: item, items: [top], density: 0}"), at: 10, 46,
                    "expected a positive number for 'density', got 0")
    }

    @Test func unknownMetric() {
        expectError(minimalScene(adding: "metrics: [rest_time, bounces]"), at: 10, 22,
                    "unknown metric \"bounces\" (expected one of: bounce_heights, contact_counts, rest_time, final_state, "
                    + "overshoot, settle_time, oscillations)")
    }

    @Test func loadMissingFile() {
        #expect(throws: SceneError(path: "/nonexistent/x.yaml", line: 1, column: 1, message: "no such file")) {
            try SceneFile.load(path: "/nonexistent/x.yaml")
        }
    }
}
