import Foundation
import TerminalTesting
import Testing
import TweetKit

@testable import TweetStore

/// X account archives as X hands them out, zipped: what is unpacked, in both layouts, stored and deflated, in plain
/// and ZIP64 form, and the refusals of damaged ZIPs.
@Suite("Zipped X archives")
struct ZippedArchiveTests {
    /// The files of `folder`'s archive under `twitter-2024-01-01-abc/`, beside media and the archive's HTML, which
    /// stay in the ZIP.
    static func zip(_ folder: URL, deflate: Bool, zip64: Bool) throws -> (zip: URL, files: [String: Data]) {
        var writer = ZipWriter(zip64: zip64)
        var files: [String: Data] = [:]
        writer.add("twitter-2024-01-01-abc/Your archive.html", Data("<html></html>".utf8))
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("data").path) {
            let data = try Data(contentsOf: folder.appendingPathComponent("data/\(name)"))
            files[name] = data
            let deflated = deflate ? Data(FixtureCompressor.deflateRaw(Array(data))) : nil
            writer.add("twitter-2024-01-01-abc/data/\(name)", data, deflated: deflated)
        }
        writer.add("twitter-2024-01-01-abc/data/tweets_media/100-a.jpg", Data(repeating: 0xFF, count: 4096))
        let zip = folder.appendingPathComponent("twitter-2024-01-01-abc.zip")
        try writer.finish().write(to: zip)
        return (zip, files)
    }

    @Test(arguments: StoreArchiveTests.Layout.allCases, [(false, false), (true, false), (true, true)])
    func theArchiveIsUnpackedBesideNothingElseAndImportsAsItsFolder(
        _ layout: StoreArchiveTests.Layout, _ form: (deflate: Bool, zip64: Bool)
    ) async throws {
        let folder = try StoreArchiveTests.archive(layout)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (zip, files) = try Self.zip(folder, deflate: form.deflate, zip64: form.zip64)
        #expect(ZipReader.looksLikeZip(zip))
        let unpacked = try #require(try ZippedArchive.unpack(zip))
        #expect(unpacked.folder.lastPathComponent == "twitter-2024-01-01-abc", "named after the ZIP")
        let data = unpacked.folder.appendingPathComponent("data")
        let written = try FileManager.default.contentsOfDirectory(atPath: data.path).sorted()
        #expect(written == files.keys.sorted(), "the tweets and the account, not the media or the HTML")
        for (name, bytes) in files { #expect(try Data(contentsOf: data.appendingPathComponent(name)) == bytes) }

        let fromZip = try TweetStore(location: .inMemory)
        let zipReport = try await fromZip.importArchive(at: unpacked.folder)
        let fromFolder = try TweetStore(location: .inMemory)
        let folderReport = try await fromFolder.importArchive(at: folder)
        #expect(zipReport.tweets == folderReport.tweets && zipReport.entries == folderReport.entries)
        #expect(try await fromZip.collections().map(\.name) == ["twitter-2024-01-01-abc"])
        unpacked.remove()
        #expect(!FileManager.default.fileExists(atPath: unpacked.folder.path))
    }

    /// A deflated entry of several megabytes goes through the inflate loop more than once each way.
    @Test func aLargeDeflatedEntryComesOutWhole() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        var generator = SystemRandomNumberGenerator()
        let words = (0..<600_000).map { _ in String(UInt32.random(in: 0...99_999, using: &generator)) }
        let data = Data(words.joined(separator: " ").utf8)
        var writer = ZipWriter()
        writer.add("data/tweets.js", data, deflated: Data(FixtureCompressor.deflateRaw(Array(data))))
        let zip = folder.appendingPathComponent("big.zip")
        try writer.finish().write(to: zip)
        let reader = try ZipReader(url: zip)
        let target = folder.appendingPathComponent("out")
        try reader.extract(try #require(reader.entries.first), to: target)
        #expect(try Data(contentsOf: target) == data)
    }

    @Test func damagedAndForeignZipsAreRefusedWithTheirReason() throws {
        let folder = try StoreArchiveTests.archive(.of2023)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (zip, _) = try Self.zip(folder, deflate: true, zip64: false)
        let bytes = try Data(contentsOf: zip)

        func problem(_ data: Data) -> String? {
            let damaged = folder.appendingPathComponent("damaged.zip")
            try? data.write(to: damaged)
            do {
                let unpacked = try ZippedArchive.unpack(damaged)
                unpacked?.remove()
                return unpacked == nil ? "no archive" : nil
            } catch {
                return (error as? ImportInputError)?.message
            }
        }
        // A byte of tweets.js's deflated data changed: the first tweets-file entry's data starts after its header.
        let reader = try ZipReader(url: zip)
        let tweets = try #require(reader.entries.first { $0.name.hasSuffix("/tweets.js") })
        var flipped = bytes
        let dataStart = Int(tweets.localHeaderOffset) + 30 + tweets.name.utf8.count + 10
        flipped[dataStart] ^= 0x5A
        let flippedProblem = try #require(problem(flipped))
        #expect(flippedProblem.contains("tweets.js in the ZIP file is damaged"), "\(flippedProblem)")
        #expect(problem(bytes.prefix(bytes.count - 30))?.contains("no central directory") == true)
        #expect(problem(bytes.prefix(bytes.count / 2))?.contains("no central directory") == true)

        var other = ZipWriter()
        other.add("notes/readme.txt", Data("hello".utf8))
        #expect(problem(other.finish()) == "no archive", "a ZIP without tweets is not an archive")

        var encrypted = bytes
        // The general-purpose flags of every central entry: set bit 0, encrypted.
        var position = Int(try #require(Self.centralDirectoryOffset(bytes)))
        while position + 4 <= encrypted.count, encrypted[position..<(position + 4)].elementsEqual([0x50, 0x4B, 1, 2]) {
            encrypted[position + 8] |= 1
            let lengths = [28, 30, 32].map { Int(encrypted[position + $0]) | Int(encrypted[position + $0 + 1]) << 8 }
            position += 46 + lengths.reduce(0, +)
        }
        #expect(problem(encrypted)?.contains("is encrypted") == true)
    }

    /// A ZIP64 locator whose record offset lies past the file, up to the largest 64-bit value: Foundation's `seek`
    /// trapped on offsets past `Int64.max` (found by the `zip` fuzzer), and any offset past the end is damage.
    @Test(arguments: [UInt64.max, UInt64(Int64.max) + 1, 1 << 40, 200])
    func aZip64LocatorPointingOutsideTheFileIsRefused(offset: UInt64) throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        var bytes = [UInt8]("PK\u{3}\u{4}".utf8) + [UInt8](repeating: 0, count: 100)
        // The ZIP64 end-of-directory locator: signature, disk, record offset, disks.
        bytes += [0x50, 0x4B, 0x06, 0x07, 0, 0, 0, 0]
        bytes += (0..<8).map { UInt8(truncatingIfNeeded: offset >> (8 * UInt64($0))) }
        bytes += [1, 0, 0, 0]
        // The end record: signature, disks, counts, directory size and offset, comment length.
        bytes += [0x50, 0x4B, 0x05, 0x06] + [UInt8](repeating: 0xFF, count: 16) + [0, 0]
        let file = folder.appendingPathComponent("bad64.zip")
        try Data(bytes).write(to: file)
        #expect {
            try ZipReader(url: file)
        } throws: { error in
            (error as? ImportInputError)?.message == "the ZIP file's 64-bit directory record lies outside the file"
        }
    }

    private static func centralDirectoryOffset(_ bytes: Data) -> UInt32? {
        let array = [UInt8](bytes)
        guard array.count >= 22 else { return nil }
        let end = array.count - 22
        return (0..<4).reduce(UInt32(0)) { $0 | UInt32(array[end + 16 + $1]) << (8 * $1) }
    }
}
