import Testing
import WorldSweepScene

// UIKit mixes a contact's elasticity by maximum and its friction by geometric mean, and its
// boundaries have 0.2 of each (uikit-dynamics-semantics.md): the notes say which swept values
// the partners make idle.

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

@Suite struct MixingRulesTests {
    @Test func rulesAreMaxAndGeometricMean() {
        #expect(MixingRules.elasticity(0.1, 0.2) == 0.2 && MixingRules.elasticity(0.9, 0.2) == 0.9)
        #expect(MixingRules.friction(0.8, 0.2) == 0.4 && MixingRules.friction(0.5, 0) == 0)
        #expect(MixingRules.boundaryElasticity == 0.2 && MixingRules.boundaryFriction == 0.2)
    }

    @Test func elasticityBelowTheBoundariesIsNoted() throws {
        // Against the boundaries alone (0.2): 0 … 1 is idle up to 0.2; 0 … 0.1 is idle throughout.
        let notes = try scene(sweep: "stuff.elasticity: {linspace: [0, 1, 5]}").mixingNotes()
        #expect(notes.count == 1)
        #expect(notes.first?.hasPrefix("stuff.elasticity: values up to 0.2 change no contact: ") == true)
        #expect(notes.first?.contains("the boundaries 0.2") == true)
        let all = try scene(sweep: "stuff.elasticity: [0, 0.1]").mixingNotes()
        #expect(all.first?.hasPrefix("stuff.elasticity: no swept value (0 … 0.1) changes a contact: ") == true)
        // Every value at or above 0.2 matters.
        #expect(try scene(sweep: "stuff.elasticity: [0.2, 0.5]").mixingNotes().isEmpty)
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
        #expect(notes.first?.hasPrefix("stuff.elasticity: values up to 0.6 change no contact: ") == true)
        #expect(notes.first?.contains("boundaries") == false)
        // A partner under no item behavior has the engine's default 0.2.
        let plain = try scene(sweep: "stuff.elasticity: [0.1, 0.7]",
                              collision: "{type: collision, items: [box, ball], mode: items}",
                              extraItems: "  ball: {center: [160, 300], size: [40, 40]}").mixingNotes()
        #expect(plain.first?.hasPrefix("stuff.elasticity: values up to 0.2 change no contact: ") == true)
        // Items of the swept behavior that touch each other mix the value with itself: no note.
        let mutual = try scene(sweep: "stuff.elasticity: [0, 0.1]",
                               collision: "{type: collision, items: [box, ball], reference_bounds: true}",
                               extraItems: "  ball: {center: [160, 300], size: [40, 40]}",
                               extraBehaviors: "  more: {type: item, items: [ball], density: 2}").mixingNotes()
        #expect(mutual.count == 1)   // ball is box's partner at its default 0.2 …
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
        #expect(notes == ["stuff.friction: its values change nothing: a contact's friction is the geometric mean of "
                          + "the two sides', and every partner of box has friction 0."])
        // Against the boundaries (0.2) friction always matters.
        #expect(try scene(sweep: "stuff.friction: [0.1, 0.9]").mixingNotes().isEmpty)
    }
}
