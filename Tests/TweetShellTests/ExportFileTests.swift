import Foundation
import XCTest

@testable import TweetShell

/// An export's file appears only when the export is complete: a failed one leaves no cut-off file and keeps the file
/// that was there; devices are written in place; and a full disk is said in words.
final class ExportFileTests: XCTestCase {
    private func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("export-file-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    private func names(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    func testNothingIsAtThePathUntilCommitAndAbandonKeepsWhatWasThere() throws {
        let folder = try folder()
        let fresh = folder.appendingPathComponent("fresh.jsonl").path
        let file = try XCTUnwrap(ExportFile(path: fresh))
        XCTAssertFalse(file.replaces)
        file.handle.write(Data("half".utf8))
        XCTAssertFalse(FileManager.default.fileExists(atPath: fresh), "not there while it is written")
        XCTAssertEqual(file.abandon(), "nothing was written")
        XCTAssertEqual(try names(in: folder), [], "the partial file is gone")

        let kept = folder.appendingPathComponent("kept.jsonl").path
        try Data("earlier export\n".utf8).write(to: URL(fileURLWithPath: kept))
        let failing = try XCTUnwrap(ExportFile(path: kept))
        XCTAssertTrue(failing.replaces)
        failing.handle.write(Data("cut off".utf8))
        XCTAssertEqual(failing.abandon(), "\(kept) was left as it was")
        XCTAssertEqual(try String(contentsOfFile: kept, encoding: .utf8), "earlier export\n")

        chmod(kept, 0o600)
        let replacing = try XCTUnwrap(ExportFile(path: kept))
        replacing.handle.write(Data("new export\n".utf8))
        try replacing.commit()
        XCTAssertEqual(try String(contentsOfFile: kept, encoding: .utf8), "new export\n")
        let mode = try FileManager.default.attributesOfItem(atPath: kept)[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o600, "a private file stays private")
        XCTAssertEqual(try names(in: folder), ["kept.jsonl"])

        // Dropped without a word (a thrown error past it): still nothing left behind.
        do {
            let dropped = try XCTUnwrap(ExportFile(path: folder.appendingPathComponent("dropped.csv").path))
            dropped.handle.write(Data("x".utf8))
        }
        XCTAssertEqual(try names(in: folder), ["kept.jsonl"])
    }

    /// A link stays a link: the file it names is replaced, whole, and nothing of the longer old file is left after.
    func testALinkedFileIsReplacedThroughTheLink() throws {
        let folder = try folder()
        let real = folder.appendingPathComponent("real.jsonl").path
        let link = folder.appendingPathComponent("link.jsonl").path
        try Data("a much longer earlier export\n".utf8).write(to: URL(fileURLWithPath: real))
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: real)
        let file = try XCTUnwrap(ExportFile(path: link))
        XCTAssertTrue(file.replaces)
        file.handle.write(Data("short\n".utf8))
        try file.commit()
        XCTAssertEqual(try String(contentsOfFile: real, encoding: .utf8), "short\n")
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link), real)
        XCTAssertEqual(try names(in: folder), ["link.jsonl", "real.jsonl"])
    }

    func testADeviceIsWrittenInPlaceAndAFullDiskIsSaidInWords() throws {
        let null = try XCTUnwrap(ExportFile(path: "/dev/null"))
        XCTAssertFalse(null.replaces)
        null.handle.write(Data("x".utf8))
        try null.commit()

        let full = try XCTUnwrap(ExportFile(path: "/dev/full"))
        XCTAssertThrowsError(try full.handle.write(contentsOf: Data(repeating: 0x41, count: 1 << 16))) { error in
            XCTAssertEqual(ErrorText.describe(error), "the disk is full")
        }
        XCTAssertEqual(full.abandon(), "what came before the failure went to /dev/full")
        let wrapped = NSError(
            domain: NSCocoaErrorDomain, code: 640,
            userInfo: [NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(EROFS))])
        XCTAssertEqual(ErrorText.describe(wrapped), "the file system is read-only")
        XCTAssertEqual(ErrorText.describe(POSIXError(.EACCES)), "permission denied")
        XCTAssertEqual(ErrorText.describe(CancellationError()), "interrupted", "not 'CancellationError()'")
    }
}
