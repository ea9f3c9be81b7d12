import Foundation
import TestScratch
import Testing
@testable import WorldSweepRun

@Suite struct OutputFolderTests {
    @Test func parentsOfRelativeAndAbsolutePaths() {
        // A bare relative name trapped inside Foundation's path code in release builds.
        #expect(OutputFolder.parent(of: "o") == ".")
        #expect(OutputFolder.parent(of: "runs/o/") == "runs")
        #expect(OutputFolder.parent(of: "/o") == "/")
        #expect(OutputFolder.parent(of: "/") == "/")
        #expect(OutputFolder.parent(of: "a/b/c") == "a/b")
    }

    @Test func createMakesMissingParentsAndRefusesUnderAFile() throws {
        let root = Scratch.directory("folders")
        try OutputFolder.create("\(root)/a/b/c")
        #expect(OutputFolder.kind(of: "\(root)/a/b/c") == .folder)
        try Data("x".utf8).write(to: URL(fileURLWithPath: "\(root)/file"))
        #expect(throws: RunInputError.self) { try OutputFolder.create("\(root)/file/d") }
        #expect(throws: RunInputError.self) { try OutputFolder.check("\(root)/file/d") }
        #expect(throws: Never.self) { try OutputFolder.check("\(root)/new/deeper") }
    }
}
