import Testing
@testable import WorldSweep

/// The world's contact list, newest first (Box2D's prepend order), and each body's list. The
/// lists are kept between rebuilds; contacts replaced wholesale (the batch's time-of-impact
/// hand-over) are checked by serial, which a world records only once it has been handed over.
@Suite struct ContactListsTests {
    /// Three bodies, three pairs: 0–1 (slot 0), 0–2 (slot 1), 1–2 (slot 2).
    let pairs = [BodyPair(a: 0, b: 1), BodyPair(a: 0, b: 2), BodyPair(a: 1, b: 2)]

    func contacts(serials: [Int?]) -> [Contact?] { serials.map { s in s.map { Contact(serial: $0) } } }

    @Test func theListIsNewestFirstAndEachBodysListFollowsIt() {
        var lists = ContactLists()
        let made = contacts(serials: [5, nil, 9])
        lists.rebuild(made, pairs, bodyCount: 3)
        #expect(lists.newestFirst == [2, 0])
        #expect(Array(lists.list(of: 1, pairs, bodyCount: 3)) == [2, 0])
        #expect(Array(lists.list(of: 0, pairs, bodyCount: 3)) == [0])
        #expect(lists.list(of: 2, pairs, bodyCount: 3).elementsEqual([2]))
    }

    /// Contacts replaced by others with other serials: the lists follow the new serials, whether
    /// or not the lists had recorded the old ones (a world handed over for the first time had not).
    @Test func replacedContactsAreNeverServedTheOldOrder() {
        var lists = ContactLists()
        lists.rebuild(contacts(serials: [1, 2, 3]), pairs, bodyCount: 3)
        #expect(lists.newestFirst == [2, 1, 0])
        // First hand-over: nothing recorded to compare with, so the lists are made again.
        lists.checked = false
        lists.rebuild(contacts(serials: [6, 5, 4]), pairs, bodyCount: 3)
        #expect(lists.newestFirst == [0, 1, 2])
        // Second: the serials were recorded at the first, and now differ again.
        lists.checked = false
        lists.rebuild(contacts(serials: [7, 9, 8]), pairs, bodyCount: 3)
        #expect(lists.newestFirst == [1, 2, 0])
        #expect(Array(lists.list(of: 0, pairs, bodyCount: 3)) == [1, 0])
        // Handed back the same contacts: the lists stay as they are.
        lists.checked = false
        lists.rebuild(contacts(serials: [7, 9, 8]), pairs, bodyCount: 3)
        #expect(lists.valid && lists.newestFirst == [1, 2, 0])
    }

    /// A contact destroyed between rebuilds drops out without a sort (the kept order).
    @Test func aDestroyedContactDropsOutOfTheKeptOrder() {
        var lists = ContactLists()
        lists.rebuild(contacts(serials: [1, 2, 3]), pairs, bodyCount: 3)
        lists.valid = false
        lists.rebuild(contacts(serials: [1, nil, 3]), pairs, bodyCount: 3)
        #expect(lists.newestFirst == [2, 0])
        #expect(Array(lists.list(of: 2, pairs, bodyCount: 3)) == [2])
    }
}
