// The contact update over threads (WorldThreads.swift). A contact's refresh is a function of its
// own state and its two bodies' shapes and transforms, which the update does not change; so the
// contacts that are active when the stage starts and whose boxes overlap are refreshed in chunks
// of slots on any thread, each into its own slot, its touching change kept beside it. Then, on
// the calling thread and slot by slot in pair order as `updateContacts` takes them, what depends
// on order: contacts whose boxes parted destroyed, bodies woken and the touching changes recorded.
// A body only wakes during the update, so a contact active at the start still is; one whose body
// a change before it woke was asleep when the chunks ran, and is refreshed there and then. The
// same contacts, manifolds, wake-ups and changes in the same order as on one thread.

extension PhysicsWorld {
    /// The least contact slots for the update to split over threads.
    static let leastSlotsToSplit = 256

    /// `updateContacts` with the refreshes over `threads` (the boxes already computed).
    func updateContactsOverThreads() {
        let n = pairs.count
        stagesSplit += 1
        if refreshedChanges.count < n {
            refreshedChanges = Array(repeating: nil, count: max(n, refreshedChanges.count + refreshedChanges.count / 2))
        }
        let chunks = threads.chunkCount(n), threads = self.threads
        // Every write below goes through these pointers, taken on this thread: an array written
        // through its own subscript from several threads could see itself shared and copy.
        bodies.withUnsafeMutableBufferPointer { bodies in
            boxes.withUnsafeBufferPointer { boxes in
                pairs.withUnsafeBufferPointer { pairs in
                    contacts.withUnsafeMutableBufferPointer { contacts in
                        refreshedChanges.withUnsafeMutableBufferPointer { changes in
                            threads.run(chunks: chunks) { k, _ in
                                for i in WorldThreads.chunk(k, of: chunks, items: n) {
                                    changes[i] = nil
                                    guard var c = contacts[i] else { continue }
                                    let p = pairs[i]
                                    let a = bodies.baseAddress! + p.a, b = bodies.baseAddress! + p.b
                                    let active = a.pointee.isActive || b.pointee.isActive
                                    guard active, boxes[p.a].overlaps(boxes[p.b]) else { continue }
                                    // The shapes lent where they lie (`Contact.refresh(_:lending:…)`):
                                    // only read, by any number of threads at once.
                                    changes[i] = Contact.refresh(&c, lending: &a.pointee.shape, a.pointee.xf,
                                                                 &b.pointee.shape, b.pointee.xf)
                                    contacts[i] = c
                                }
                            }
                        }
                    }
                }
            }
        }
        for i in 0..<n where contacts[i] != nil {
            let p = pairs[i]
            if !bodies[p.a].isActive && !bodies[p.b].isActive { continue }
            if !boxes[p.a].overlaps(boxes[p.b]) { destroyContact(i); continue }
            if let change = refreshedChanges[i] { touchChanged(change, p) } else { updateContact(i) }
        }
    }
}
