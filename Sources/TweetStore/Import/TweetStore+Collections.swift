import Foundation
import TweetKit

extension TweetStore {
    /// Imports a JSONL collection in any shape `CollectionLineDecoder` detects (twarc2 pages, flattened tweets, single
    /// lookups, v1.1 responses), line by line; see `importJSONL(at:decodeLine:progress:)` for batching and resuming.
    public func importJSONL(at url: URL, progress: (@Sendable (ImportProgress) -> Void)? = nil) async throws
        -> ImportReport
    {
        try await importJSONL(
            at: url, decodeLine: { try CollectionLineDecoder.decode(line: $0, keepOriginals: true) }, progress: progress
        )
    }

    /// Imports JSON in any layout and compression `importJSON(from:collection:decodeLine:progress:)` reads, decoded by
    /// `CollectionLineDecoder` with every object's original kept, into the collection named `collection` (by default
    /// the file's name). This is the shell's `import`, so it must keep what `export` writes back.
    public func importJSON(
        from input: ImportInput, collection: String? = nil, progress: (@Sendable (ImportProgress) -> Void)? = nil
    ) async throws -> ImportReport {
        try await importJSON(
            from: input, collection: collection,
            decodeLine: { try CollectionLineDecoder.decode(line: $0, keepOriginals: true) }, progress: progress)
    }

    /// Imports an X account archive (its folder, `data` folder, the ZIP X sends, or a tweets file), in batches.
    ///
    /// Archive entries that cannot be read are skipped and reported with `line` 0 and a message naming the file and
    /// position. The report counts `entries` rather than lines, and warns when `account.js` is missing. Handles of
    /// the users replied to are kept for `to:handle`. An archive is small enough that a cancelled or killed import is simply run again; upserts make that
    /// safe. `progress` carries tweets and errors after each batch (bytes and lines stay 0).
    ///
    /// The tweets join the collection named `collection`, by default the archive folder's name.
    public func importArchive(
        at url: URL, collection: String? = nil, progress: (@Sendable (ImportProgress) -> Void)? = nil
    ) async throws -> ImportReport {
        let collection = try CollectionNameError.check(collection, orNameOf: .file(url))
        return try await ArchiveImport.run(at: url, progress: progress) { pages, handles in
            let new = try await insertCountingNew(pages, collection: collection)
            try await recordReplyHandles(handles)
            return new
        }
    }
}
