import Testing
import WorldSweep
import WorldSweepScene

// UIKit mixes a contact's elasticity by maximum and its friction by geometric mean, and its
// boundaries have fixed values of each (the engine's `EngineSettings.boundaryElasticity` and
// `.boundaryFriction`; the mixing itself is tested where the engine contacts use it, in
// ContactTests): the notes say which swept values the partners make idle. Each note names its
// path, then the floor up to which values are idle (or that none matters).

/// The floor a note names: "values up to X", X as written in the note.
private func floor(of note: String?) -> String? {
    guard let note, let r = note.range(of: "values up to ") else { return nil }
    return String(note[r.upperBound...].prefix { $0 != " " })
}

private func scene(sweep: String, collision: String = "{type: collision, items: [box], reference_bounds: true}",
                   extraItems: String = "", extraBehaviors: String = "") throws -> SceneFile {
    try SceneFile.parse(yaml: """
        name: mixing
        world: {bounds: [320, 568], ticks: 10}
        items:
          box: {center: [160, 100], size: [40, 40]}
        \(extraItems)
        behaviors:
          walls: \(collision)
          stuff: {type: item, items: [box], elasticity: 0.5, friction: 0.5}
        \(extraBehaviors)
        sweep:
          parameters:
            \(sweep)
        """)
}

@Suite struct MixingNotesTests {
    static let boundary = "\(EngineSettings.boundaryElasticity)"

    @Test func elasticityBelowTheBoundariesIsNoted() throws {
        // Against the boundaries alone: 0 … 1 is idle below the boundaries' elasticity; 0 … 0.1
        // (below it throughout) is idle throughout.
        #expect(EngineSettings.boundaryElasticity > 0.1 && EngineSettings.boundaryElasticity < 0.5)
        let notes = try scene(sweep: "stuff.elasticity: {linspace: [0, 1, 5]}").mixingNotes()
        #expect(notes.count == 1 && notes.first?.hasPrefix("stuff.elasticity: ") == true)
        #expect(floor(of: notes.first) == Self.boundary)
        #expect(notes.first?.contains("the boundaries \(Self.boundary)") == true)
        let all = try scene(sweep: "stuff.elasticity: [0, 0.1]").mixingNotes()
        #expect(all.count == 1 && floor(of: all.first) == nil && all.first?.contains("no swept value (0 … 0.1)") == true)
        // Every value at or above the boundaries' matters.
        #expect(try scene(sweep: "stuff.elasticity: [\(Self.boundary), 0.5]").mixingNotes().isEmpty)
    }

    @Test func eachTouchedPartnerSaysWhereItsContactsStartToChange() throws {
        // The twin-drop case: a partner item of elasticity 0.1 and the boundaries' 0.2. Judged on
        // every partner it can touch, values up to 0.1 change no contact and values up to 0.2 none
        // with the boundaries (where a first bounce off the floor happens): both said.
        let both = try scene(sweep: "stuff.elasticity: {linspace: [0, 1, 16]}",
                             collision: "{type: collision, items: [box, ball], reference_bounds: true}",
                             extraItems: "  ball: {center: [160, 300], size: [40, 40]}",
                             extraBehaviors: "  stiff: {type: item, items: [ball], elasticity: 0.1}").mixingNotes()
        #expect(both.first?.hasPrefix("stuff.elasticity: values up to 0.1 change no contact; values up to 0.2 change no contact with the boundaries: ") == true)
        // Judged on the partners the run says box touched (only the boundaries): the 0.2 alone.
        let touched = try scene(sweep: "stuff.elasticity: {linspace: [0, 1, 16]}",
                                collision: "{type: collision, items: [box, ball], reference_bounds: true}",
                                extraItems: "  ball: {center: [160, 300], size: [40, 40]}",
                                extraBehaviors: "  stiff: {type: item, items: [ball], elasticity: 0.1}").mixingNotes(touched: ["box": ["bounds"]])
        #expect(touched.first?.hasPrefix("stuff.elasticity: values up to 0.2 change no contact: ") == true)
        #expect(touched.first?.contains("ball") == false)
    }

    @Test func partnersSetTheFloor() throws {
        // An item partner of elasticity 0.6, no boundaries (mode items): idle up to 0.6.
        let notes = try scene(sweep: "stuff.elasticity: [0.3, 0.7]",
                              collision: "{type: collision, items: [box, ball], mode: items}",
                              extraItems: "  ball: {center: [160, 300], size: [40, 40]}",
                              extraBehaviors: "  springy: {type: item, items: [ball], elasticity: 0.6}").mixingNotes()
        #expect(notes.count == 1 && floor(of: notes.first) == "0.6")
        #expect(notes.first?.contains("boundaries") == false)
        // A partner under no item behavior has the engine's default elasticity.
        let plain = try scene(sweep: "stuff.elasticity: [0.1, 0.7]",
                              collision: "{type: collision, items: [box, ball], mode: items}",
                              extraItems: "  ball: {center: [160, 300], size: [40, 40]}").mixingNotes()
        #expect(plain.count == 1 && floor(of: plain.first) == "\(DynamicItemBehavior.Defaults.elasticity)")
        // Items of the swept behavior that touch each other mix the value with itself: no note.
        let mutual = try scene(sweep: "stuff.elasticity: [0, 0.1]",
                               collision: "{type: collision, items: [box, ball], reference_bounds: true}",
                               extraItems: "  ball: {center: [160, 300], size: [40, 40]}",
                               extraBehaviors: "  more: {type: item, items: [ball], density: 2}").mixingNotes()
        #expect(mutual.count == 1)   // ball is box's partner at its default elasticity …
        let shared = try SceneFile.parse(yaml: """
            name: shared
            world: {bounds: [320, 568], ticks: 10}
            items:
              box: {center: [160, 100], size: [40, 40]}
              ball: {center: [160, 300], size: [40, 40]}
            behaviors:
              walls: {type: collision, items: [box, ball], reference_bounds: true}
              stuff: {type: item, items: [box, ball], elasticity: 0.5}
            sweep:
              parameters:
                stuff.elasticity: [0, 0.1]
            """)
        #expect(shared.mixingNotes().isEmpty)   // … but two items of one behavior bounce off each other
    }

    @Test func frictionAgainstFrictionlessPartnersIsNoted() throws {
        let notes = try scene(sweep: "stuff.friction: [0.1, 0.9]",
                              collision: "{type: collision, items: [box, ball], mode: items}",
                              extraItems: "  ball: {center: [160, 300], size: [40, 40]}",
                              extraBehaviors: "  slick: {type: item, items: [ball], friction: 0}").mixingNotes()
        #expect(notes.count == 1 && notes.first?.hasPrefix("stuff.friction: its values change nothing") == true)
        #expect(notes.first?.hasSuffix("every partner of box has friction 0.") == true)
        // Against the boundaries (friction above 0) friction always matters.
        #expect(EngineSettings.boundaryFriction > 0)
        #expect(try scene(sweep: "stuff.friction: [0.1, 0.9]").mixingNotes().isEmpty)
    }
}
