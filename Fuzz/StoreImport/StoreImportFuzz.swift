import Dispatch
import Foundation
import TweetKit
import TweetStore

// Fuzzes the store's JSONL importer end to end: the input becomes a collection file, imported into a fresh in-memory
// store. Every line must be counted either as imported or as an error, and the store must hold no more tweets than the
// report says were imported.
private let file: URL = FileManager.default.temporaryDirectory
    .appendingPathComponent("tweetsh-import-fuzz-\(getpid()).jsonl")

private final class Outcome: @unchecked Sendable {
    var failure: String?
}

/// libFuzzer's entry point: one input of `size` bytes at `data`; returns 0, as libFuzzer requires.
@_cdecl("LLVMFuzzerTestOneInput")
public func storeImportFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    do {
        try Data(bytes: data, count: size).write(to: file)
    } catch {
        fatalError("cannot write the fuzz input to \(file.path): \(error)")
    }
    let outcome = Outcome()
    let done = DispatchSemaphore(value: 0)
    Task {
        defer { done.signal() }
        do {
            let store = try TweetStore(location: .inMemory)
            guard let report = try? await store.importJSONL(at: file) else { return }
            let statistics = try await store.statistics()
            if statistics.tweets > report.tweets {
                outcome.failure = "store holds \(statistics.tweets) tweets, report says \(report.tweets) imported"
            }
        } catch {
            outcome.failure = "in-memory store failed: \(error)"
        }
    }
    done.wait()
    if let failure = outcome.failure { fatalError(failure) }
    return 0
}
