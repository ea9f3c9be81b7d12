// The contact update in two passes, over threads (WorldThreads.swift) or with box pairs eight
// to a lane kernel call (ContactUpdateLanes.swift). A contact's refresh is a function of its own
// state and its two bodies' shapes and transforms, which the update does not change; so pass one
// refreshes the contacts that are active when the stage starts and whose boxes overlap, in chunks
// of slots on any thread, each into its own slot, and notes per slot what is left to do. Then
// pass two, on the calling thread and slot by slot in pair order as `updateContacts` takes them,
// does what depends on order: contacts whose boxes parted destroyed, bodies woken and the
// touching changes recorded. A body only wakes during the update, so a contact active at the
// start still is; one whose body a change before it woke was asleep when pass one ran, and is
// refreshed there and then. The same contacts, manifolds, wake-ups and changes in the same order
// as one pair at a time.

extension PhysicsWorld {
    /// The least contact slots for the update to split over threads.
    static let leastSlotsToSplit = 256

    /// `updateContacts` with the refreshes over `threads` (the boxes already computed).
    func updateContactsOverThreads() {
        stagesSplit += 1
        updateContactsInTwoPasses(chunks: threads.chunkCount(pairs.count))
    }

    /// `updateContacts` as two passes (the boxes already computed): the refreshes of the
    /// contacts active at the start in `chunks` chunks (on `threads`; box–box pairs eight per
    /// kernel call while `updatesContactsInPairLanes`: ContactUpdateLanes.swift), then what
    /// depends on order, slot by slot.
    func updateContactsInTwoPasses(chunks: Int) {
        let n = pairs.count
        if refreshedChanges.count < n {
            let count = max(n, refreshedChanges.count + refreshedChanges.count / 2)
            refreshedChanges = Array(repeating: .none, count: count)
            updateSteps = Array(repeating: .none, count: count)
        }
        let threads = self.threads, inLanes = updatesContactsInPairLanes
        // Every write below goes through these pointers, taken on this thread: an array written
        // through its own subscript from several threads could see itself shared and copy.
        bodies.withUnsafeMutableBufferPointer { bodies in
            boxes.withUnsafeBufferPointer { boxes in
                pairs.withUnsafeBufferPointer { pairs in
                    contacts.withUnsafeMutableBufferPointer { contacts in
                        refreshedChanges.withUnsafeMutableBufferPointer { changes in
                            updateSteps.withUnsafeMutableBufferPointer { steps in
                                withUnsafeTemporaryAllocation(of: Int.self, capacity: chunks) { inLanesCounts in
                                    threads.run(chunks: chunks) { k, _ in
                                        inLanesCounts[k] = Self.refreshContacts(
                                            WorldThreads.chunk(k, of: chunks, items: n), bodies: bodies, boxes: boxes,
                                            pairs: pairs, contacts: contacts, changes: changes, steps: steps, inLanes: inLanes)
                                    }
                                    for k in 0..<chunks { contactsRefreshedInLanes &+= inLanesCounts[k] }
                                }
                            }
                        }
                    }
                }
            }
        }
        // Pass two. A contact refreshed in pass one was active when it began and still is (a
        // body only wakes here), its boxes as they were: only its change is left to record.
        for i in 0..<n {
            switch updateSteps[i] {
            case .none: continue
            case .asleep:
                let p = pairs[i]
                if !bodies[p.a].isActive && !bodies[p.b].isActive { continue }
                if !boxes[p.a].overlaps(boxes[p.b]) { destroyContact(i); continue }
                updateContact(i)
            case .destroy: destroyContact(i)
            case .changed: touchChanged(refreshedChanges[i], pairs[i])
            }
        }
    }
}

extension PhysicsWorld {
    /// The least bodies for the bounding boxes to be computed over threads.
    static let leastBodiesToSplit = 256

    /// `computeBoxes` in chunks of bodies over `threads` (`boxes` already one per body): a box is
    /// a function of its own body alone, written to its own place.
    func computeBoxesOverThreads(swept: Bool) {
        stagesSplit += 1
        let n = bodies.count, chunks = threads.chunkCount(n), threads = self.threads
        bodies.withUnsafeBufferPointer { bodies in
            boxes.withUnsafeMutableBufferPointer { boxes in
                threads.run(chunks: chunks) { k, _ in
                    Self.computeBoxes(WorldThreads.chunk(k, of: chunks, items: n), of: bodies, into: boxes, swept: swept)
                }
            }
        }
    }
}
