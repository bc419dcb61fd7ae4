import Foundation
import TweetKit

/// An X account archive as X hands it out, a ZIP file, unpacked just enough to import: the tweets files, the manifest,
/// `account.js` and `profile.js`, into a temporary folder named after the ZIP, which the archive import then reads as
/// it reads an unzipped archive. The media, most of a big archive, stay in the ZIP.
package struct ZippedArchive {
    /// The temporary folder holding the archive's `data` files; `remove()` deletes it.
    package let folder: URL
    private let root: URL

    /// The files of an archive's `data` folder that the import reads.
    static func isWanted(_ name: String) -> Bool {
        ["manifest.js", "account.js", "profile.js"].contains(name) || ArchiveReader.partNumber(of: name) != nil
    }

    /// The folder inside the ZIP that holds its tweets: `data/` (or `<top>/data/`), or the folder of the first
    /// tweets file when no folder is named `data`; nil when the ZIP holds no tweets file.
    static func dataFolder(of entries: [ZipReader.Entry]) -> String? {
        let folders = entries.compactMap { entry -> String? in
            let parts = entry.name.split(separator: "/", omittingEmptySubsequences: false)
            guard let last = parts.last, ArchiveReader.partNumber(of: String(last)) != nil else { return nil }
            return parts.dropLast().joined(separator: "/")
        }
        return folders.first { $0 == "data" || $0.hasSuffix("/data") } ?? folders.first
    }

    /// Unpacks the archive in the ZIP at `zip`; nil when the ZIP holds no X archive (no tweets file). Throws
    /// `ImportInputError` for a damaged ZIP or entry.
    package static func unpack(_ zip: URL) throws -> ZippedArchive? {
        let reader = try ZipReader(url: zip)
        guard let data = dataFolder(of: reader.entries) else { return nil }
        var name = zip.lastPathComponent
        if name.lowercased().hasSuffix(".zip"), name.count > 4 { name.removeLast(4) }
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tweetsh-unzip-\(UUID().uuidString)")
        let folder = root.appendingPathComponent(name)
        let target = folder.appendingPathComponent("data")
        do {
            try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
            for entry in reader.entries {
                let parts = entry.name.split(separator: "/", omittingEmptySubsequences: false)
                guard let last = parts.last.map(String.init), parts.dropLast().joined(separator: "/") == data,
                    isWanted(last)
                else { continue }
                // Only the last component names the file written, so no entry name can write outside the folder.
                try reader.extract(entry, to: target.appendingPathComponent(last))
            }
        } catch {
            try? FileManager.default.removeItem(at: root)
            throw error
        }
        return ZippedArchive(folder: folder, root: root)
    }

    /// Deletes the unpacked files.
    package func remove() {
        try? FileManager.default.removeItem(at: root)
    }
}
