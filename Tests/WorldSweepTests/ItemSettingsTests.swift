import Testing
@testable import WorldSweep

/// Issue 28 item 4: `DynamicItemBehavior.properties` is the one list of what an item behavior
/// sets; world plans merge behaviors over it and the scene file's key table is made from it.
@Suite struct ItemSettingsTests {
    /// Every stored property of `Settings` is in the list, in declaration order, and nothing else:
    /// a property added to `Settings` alone fails here (and would be left out of every merge).
    @Test func theListHoldsEverySetting() {
        let stored = Mirror(reflecting: DynamicItemBehavior.Settings()).children.compactMap(\.label)
        #expect(stored == DynamicItemBehavior.properties.map(\.name))
        #expect(stored.count == 8)
    }

    /// The unset values are the shipping engine's (DynamicItemBehavior.Defaults), per property.
    @Test func unsetValuesAreTheDefaults() {
        for property in DynamicItemBehavior.properties {
            switch (property.name, property.value) {
            case ("elasticity", .number(_, let unset)), ("friction", .number(_, let unset)): #expect(unset == 0.2)
            case ("density", .number(_, let unset)): #expect(unset == 1)
            case ("resistance", .number(_, let unset)), ("angularResistance", .number(_, let unset)): #expect(unset == 0.1)
            case ("charge", .number(_, let unset)): #expect(unset == 0)
            case ("allowsRotation", .flag(_, let unset)): #expect(unset == true)
            case ("anchored", .flag(_, let unset)): #expect(unset == false)
            default: Issue.record("unexpected property \(property.name)")
            }
        }
    }

    /// A later behavior wins property by property; what it leaves unset keeps the earlier value.
    @Test func aLaterBehaviorWinsPropertyByProperty() {
        var earlier = DynamicItemBehavior.Settings()
        earlier.elasticity = 0.5; earlier.friction = 0.3; earlier.anchored = true
        var later = DynamicItemBehavior.Settings()
        later.friction = 0.9; later.allowsRotation = false; later.charge = 2
        let merged = earlier.overlaid(by: later)
        #expect(merged.elasticity == 0.5 && merged.friction == 0.9 && merged.anchored == true)
        #expect(merged.allowsRotation == false && merged.charge == 2)
        #expect(merged.density == nil && merged.resistance == nil && merged.angularResistance == nil)
        // Over nothing, a behavior's settings are its own (what the plan's first behavior takes).
        #expect(DynamicItemBehavior.Settings().overlaid(by: later) == later)
    }
}
