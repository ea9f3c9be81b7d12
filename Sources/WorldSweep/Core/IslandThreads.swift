// The islands over threads (WorldThreads.swift). The walk runs whole first, on the calling
// thread, listing each island's bodies, contacts and joints: it reads which bodies are awake and
// static and which contacts touch, and no island's solve changes that for a body the walk has
// yet to reach (a solve writes its own moving bodies, its contacts and its joints; the static
// bodies islands share it only reads). So the islands, solved after the walk rather than as it
// completes each, are the same islands in the same order, and they share no memory they write:
// chunks of whole islands are solved on any thread. Last, on the calling thread in the walk's
// order, each island's static bodies are woken and, if it fell asleep, put to sleep, as the
// one-thread walk does island by island. The same bits as on one thread.

/// Where an island's bodies, contacts and joints end in the walk's lists.
struct IslandEnd {
    var bodies: Int, contacts: Int, joints: Int
}

extension PhysicsWorld {
    /// The least touching contacts for the islands to be solved over threads.
    static let leastTouchingToSplit = 128

    /// `solve` with the islands over `threads`: `touching` as `solve` lists them.
    func solveOverThreads(_ touching: [Int32], scratch: IslandWalkScratch, _ h: Float, dtRatio: Float) {
        let graph = walkIslands(touching, scratch: scratch, h, dtRatio: dtRatio, listing: true)
        let ends = graph.ends!, islandBodies = graph.islandBodies
        let islandContacts = graph.islandContacts, islandJoints = graph.islandJoints
        let count = ends.count
        guard count > 0 else { return }
        stagesSplit += 1
        func start(_ island: Int) -> IslandEnd { island == 0 ? IslandEnd(bodies: 0, contacts: 0, joints: 0) : ends[island - 1] }
        // A big island without joints is solved after the chunks, its velocity passes shared
        // between the threads (IslandVelocityThreads.swift); the rest in chunks of whole islands
        // of about equal work (bodies and contacts), by the lists alone.
        func sharesPasses(_ island: Int) -> Bool {
            ends[island].contacts - start(island).contacts >= IslandVelocityParts.leastContacts
                && ends[island].joints == start(island).joints
        }
        var workBefore = Array(repeating: 0, count: count + 1)
        for island in 0..<count {
            let work = sharesPasses(island) ? 0 : ends[island].bodies - start(island).bodies + ends[island].contacts - start(island).contacts
            workBefore[island + 1] = workBefore[island] + work
        }
        let chunks = threads.chunkCount(count)
        let total = workBefore[count]
        var firstIsland = Array(repeating: count, count: chunks + 1)
        var chunk = 0
        for island in 0..<count {
            let at = min(chunks - 1, total > 0 ? workBefore[island] * chunks / total : 0)
            while chunk <= at { firstIsland[chunk] = island; chunk += 1 }
        }
        if islandScratches.count < threads.count {
            islandScratches += Array(repeating: IslandSolveScratch(), count: threads.count - islandScratches.count)
        }
        var asleep = Array(repeating: false, count: count)
        let threads = self.threads
        withIslandAccess { access in
            islandScratches.withUnsafeMutableBufferPointer { scratches in
                asleep.withUnsafeMutableBufferPointer { asleep in
                    if total > 0 { threads.run(chunks: chunks) { k, worker in
                        for island in firstIsland[k]..<firstIsland[k + 1] where !sharesPasses(island) {
                            let from = start(island), to = ends[island]
                            asleep[island] = solveIsland(islandBodies[from.bodies..<to.bodies],
                                                         islandContacts[from.contacts..<to.contacts],
                                                         islandJoints[from.joints..<to.joints], h, dtRatio: dtRatio,
                                                         access: access, scratch: &scratches[worker])
                        }
                    } }
                    for island in 0..<count where sharesPasses(island) {
                        let from = start(island), to = ends[island]
                        asleep[island] = solveIsland(islandBodies[from.bodies..<to.bodies], islandContacts[from.contacts..<to.contacts],
                                                     islandJoints[from.joints..<to.joints], h, dtRatio: dtRatio,
                                                     access: access, scratch: &scratches[0], sharing: threads)
                    }
                }
            }
        }
        for island in 0..<count {
            islandStaticsSlept(islandBodies[start(island).bodies..<ends[island].bodies], asleep: asleep[island], wake: true)
        }
    }
}
