import CZstd
import Foundation
import TweetKit

/// Compresses the originals the store keeps (tweet, user, media, place and poll JSON) with Debian's libzstd and a
/// dictionary trained on the store's own first objects.
///
/// Objects are small (a few hundred bytes) and alike: on its own each compresses poorly, because zstd has nothing
/// to refer back to, but a dictionary of the keys and values they share lets it encode most of an object as
/// references. docs/benchmarks.md has the sizes measured against plain zstd and zlib.
///
/// Each blob is a zstd frame, which names its dictionary by id (0 for none), so blobs written under any dictionary
/// the store holds stay readable. Until enough objects have come to train one (`trainingSamples`), objects are
/// compressed without a dictionary. Dictionaries and contexts are safe to share between threads: the former are
/// read-only, the latter are lent out of a pool one caller at a time.
package final class OriginalsCodec: Sendable {
    /// How many objects a batch must hold to train the dictionary from it.
    static let trainingSamples = 1_000
    /// The dictionary's size: enough for the shared keys and the common values of tweets and users.
    static let dictionaryCapacity = 32 * 1024
    /// zstd's level: with the dictionary, level 1 compresses these objects about a third faster than level 3 (its
    /// default) for blobs about 5% larger (docs/benchmarks.md). Imports compress every object they store, so speed
    /// wins; blobs of any level decompress alike.
    static let level: Int32 = 1

    /// A codec with no dictionary yet: it compresses without one until a dictionary is installed or trained.
    package init() {}

    /// A trained dictionary, digested for both directions. Immutable after creation.
    package final class Dictionary: @unchecked Sendable {
        /// The id zstd wrote into the dictionary, and into every frame compressed with it.
        package let id: UInt32
        /// The dictionary as trained, to store beside the blobs that need it.
        package let bytes: [UInt8]
        fileprivate let compression: OpaquePointer
        fileprivate let decompression: OpaquePointer

        init?(bytes: [UInt8]) {
            let id = bytes.withUnsafeBytes { ZDICT_getDictID($0.baseAddress, $0.count) }
            guard id != 0,
                let compression = bytes.withUnsafeBytes({
                    ZSTD_createCDict($0.baseAddress, $0.count, OriginalsCodec.level)
                })
            else { return nil }
            guard let decompression = bytes.withUnsafeBytes({ ZSTD_createDDict($0.baseAddress, $0.count) }) else {
                ZSTD_freeCDict(compression)
                return nil
            }
            self.id = id
            self.bytes = bytes
            self.compression = compression
            self.decompression = decompression
        }

        deinit {
            ZSTD_freeCDict(compression)
            ZSTD_freeDDict(decompression)
        }
    }

    /// A compression or decompression context, lent to one caller at a time.
    private final class Context: @unchecked Sendable {
        let pointer: OpaquePointer
        let compresses: Bool
        init(compresses: Bool) {
            self.compresses = compresses
            pointer = compresses ? ZSTD_createCCtx()! : ZSTD_createDCtx()!
        }
        deinit {
            if compresses { ZSTD_freeCCtx(pointer) } else { ZSTD_freeDCtx(pointer) }
        }
    }

    private struct State {
        var current: Dictionary?
        var known: [UInt32: Dictionary] = [:]
        var compressors: [Context] = []
        var decompressors: [Context] = []
    }

    private let state = LockedState(State())

    /// The codec's state behind an `NSLock` (a `pthread_mutex_t`). An import's decoding threads share the codec, and
    /// ThreadSanitizer cannot see the futex inside `Synchronization.Mutex`, so under it every pool access read as a
    /// race (docs/stream-core.md, "Threads").
    ///
    /// Unchecked: `value` is only reached through `withLock`, under `lock`.
    private final class LockedState: @unchecked Sendable {
        private let lock = NSLock()
        private var value: State

        init(_ value: State) {
            self.value = value
        }

        func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
            lock.lock()
            defer { lock.unlock() }
            return try body(&value)
        }
    }

    /// The dictionary new objects are compressed with, if one has been trained.
    var currentDictionary: Dictionary? { state.withLock { $0.current } }

    /// Whether the next batch with enough objects should train a dictionary.
    var needsDictionary: Bool { state.withLock { $0.current == nil } }

    /// Adds dictionaries read from the store; the last one becomes the one new objects use.
    package func install(_ dictionaries: [[UInt8]]) {
        let made = dictionaries.compactMap(Dictionary.init(bytes:))
        state.withLock { state in
            for dictionary in made { state.known[dictionary.id] = dictionary }
            if let last = made.last { state.current = last }
        }
    }

    /// Trains the dictionary from `samples` unless one exists (another task may have trained it meanwhile).
    func trainIfNeeded(_ samples: [[UInt8]]) {
        guard needsDictionary, samples.count >= Self.trainingSamples else { return }
        var joined: [UInt8] = []
        joined.reserveCapacity(samples.reduce(0) { $0 + $1.count })
        for sample in samples { joined += sample }
        let sizes = samples.map { Int($0.count) }
        var dictionary = [UInt8](repeating: 0, count: Self.dictionaryCapacity)
        let size = dictionary.withUnsafeMutableBytes { target in
            joined.withUnsafeBytes { source in
                sizes.withUnsafeBufferPointer { sizes in
                    ZDICT_trainFromBuffer(
                        target.baseAddress, target.count, source.baseAddress, sizes.baseAddress, UInt32(sizes.count))
                }
            }
        }
        // Too few distinct samples make training fail; objects are then compressed without a dictionary.
        guard ZDICT_isError(size) == 0, let made = Dictionary(bytes: Array(dictionary.prefix(size))) else { return }
        state.withLock { state in
            guard state.current == nil else { return }
            state.current = made
            state.known[made.id] = made
        }
    }

    /// Trains the dictionary from the tweets and users of `pages` when the codec has none yet and they hold enough
    /// objects, and returns the dictionary new objects are compressed with now (nil: none). Both stores prepare their
    /// batches through this, so a PostgreSQL store's originals are as small and as cheap to make as an SQLite one's.
    package func dictionary(trainingFrom pages: [Page]) -> Dictionary? {
        if needsDictionary {
            var samples: [[UInt8]] = []
            for page in pages where samples.count < 4 * Self.trainingSamples {
                samples += page.originals.tweets.values.map(\.bytes)
                samples += page.originals.users.values.map(\.bytes)
            }
            trainIfNeeded(samples)
        }
        return currentDictionary
    }

    /// One object compressed with the current dictionary (or none).
    package func compress(_ bytes: [UInt8]) -> [UInt8] {
        let (context, dictionary) = state.withLock { state in
            (state.compressors.popLast() ?? Context(compresses: true), state.current)
        }
        return compress(bytes, dictionary: dictionary, context: context)
    }

    /// One object compressed with `dictionary` (nil: none), which the caller stores with it.
    package func compress(_ bytes: [UInt8], dictionary: Dictionary?) -> [UInt8] {
        let context = state.withLock { $0.compressors.popLast() ?? Context(compresses: true) }
        return compress(bytes, dictionary: dictionary, context: context)
    }

    private func compress(_ bytes: [UInt8], dictionary: Dictionary?, context: Context) -> [UInt8] {
        defer { state.withLock { $0.compressors.append(context) } }
        var failed = false
        let output = [UInt8](unsafeUninitializedCapacity: ZSTD_compressBound(bytes.count)) { target, count in
            let written = bytes.withUnsafeBytes { source in
                if let dictionary {
                    ZSTD_compress_usingCDict(
                        context.pointer, target.baseAddress, target.count, source.baseAddress, source.count,
                        dictionary.compression)
                } else {
                    ZSTD_compressCCtx(
                        context.pointer, target.baseAddress, target.count, source.baseAddress, source.count, Self.level)
                }
            }
            failed = ZSTD_isError(written) != 0
            count = failed ? 0 : written
        }
        // Compression into a buffer of the bound's size cannot fail; keep the bytes as they are if it ever does.
        return failed ? bytes : output
    }

    /// The object a blob holds. `loadDictionary` fetches a dictionary this codec has not seen (another process
    /// trained it); a blob that is not a zstd frame is returned as it is.
    package func decompress(_ blob: [UInt8], loadDictionary: (UInt32) throws -> [UInt8]?) throws -> [UInt8] {
        guard blob.count >= 4, blob[0] == 0x28, blob[1] == 0xB5, blob[2] == 0x2F, blob[3] == 0xFD else { return blob }
        let (id, size) = blob.withUnsafeBytes {
            (ZSTD_getDictID_fromFrame($0.baseAddress, $0.count), ZSTD_getFrameContentSize($0.baseAddress, $0.count))
        }
        guard size != ZSTD_CONTENTSIZE_ERROR, size != ZSTD_CONTENTSIZE_UNKNOWN, size < 1 << 30 else {
            throw StoreError(message: "a stored original is damaged")
        }
        var dictionary: Dictionary?
        if id != 0 {
            dictionary = state.withLock { $0.known[id] }
            if dictionary == nil, let bytes = try loadDictionary(id), let made = Dictionary(bytes: bytes) {
                state.withLock { $0.known[id] = made }
                dictionary = made
            }
            guard dictionary != nil else { throw StoreError(message: "a stored original's dictionary is missing") }
        }
        let context = state.withLock { $0.decompressors.popLast() ?? Context(compresses: false) }
        defer { state.withLock { $0.decompressors.append(context) } }
        var written = 0
        // Not zeroed first: an export expands every tweet it writes, and zstd writes each byte it reports.
        let output = [UInt8](unsafeUninitializedCapacity: Int(size)) { target, count in
            written = blob.withUnsafeBytes { source in
                if let dictionary {
                    ZSTD_decompress_usingDDict(
                        context.pointer, target.baseAddress, target.count, source.baseAddress, source.count,
                        dictionary.decompression)
                } else {
                    ZSTD_decompressDCtx(
                        context.pointer, target.baseAddress, target.count, source.baseAddress, source.count)
                }
            }
            count = ZSTD_isError(written) == 0 && written == target.count ? written : 0
        }
        guard ZSTD_isError(written) == 0, written == Int(size) else {
            throw StoreError(message: "a stored original is damaged")
        }
        return output
    }
}
