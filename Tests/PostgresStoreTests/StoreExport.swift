import Foundation
import TerminalTesting
import TweetKit
import TweetStore

/// Import and `exportAll` through files of a folder, for the round-trip tests of both stores.
enum StoreExport {
    /// A new store of `kind` in `folder` that imported `data` from a file there; with the import's report.
    static func imported(_ kind: StoreKind, _ data: Data, in folder: TemporaryDirectory) async throws -> (
        any CollectionStore, ImportReport
    ) {
        let file = URL(fileURLWithPath: folder.file("collection.jsonl"))
        try data.write(to: file)
        let store = try kind.make(in: folder)
        return (store, try await store.importJSON(from: .file(file), collection: nil, progress: nil))
    }

    /// Every match of `query` (inside `collection`, when given) written in `format`, `pageSize` tweets a page, with
    /// tweetsh's own `__twarc` for tweets that have none; the file's bytes and how many tweets were written.
    static func all(
        _ store: any CollectionStore, query: String, format: ExportFormat, collection: String? = nil,
        pageSize: Int = 2, in folder: TemporaryDirectory
    ) async throws -> (data: Data, written: Int) {
        let path = folder.file(UUID().uuidString + ".out")
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        let writer = ExportFileWriter(
            handle: handle, format: format,
            metadata: TwarcMetadata(url: "tweetsh:local:\(query)", retrievedAt: Date(timeIntervalSince1970: 0)))
        var request = SearchRequest(query: query, pageSize: pageSize)
        request.collection = collection
        let written = try await store.exportAll(
            SearchQuery(parsing: query), request: request, to: writer, progress: nil)
        try writer.finish()
        try handle.close()
        return (try Data(contentsOf: URL(fileURLWithPath: path)), written)
    }
}
