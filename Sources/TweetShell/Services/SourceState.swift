import Foundation
import XAPI

/// Which source searches go to, and the X API source when credentials exist. Shared by the REPL (which changes it
/// with `source` and `auth`) and the search service (which reads it on every search).
public final class SourceState: @unchecked Sendable {
    private let lock = NSLock()
    private var currentKind: SourceKind
    private var apiSource: XAPISource?
    private var collectionName: String?

    /// Rate-limit and retry waits reported by the API client, fanned out to whoever is running a search.
    public let waits: WaitBroadcaster

    /// Creates the state; `waits` is the broadcaster the API client's wait hook feeds.
    public init(current: SourceKind, api: XAPISource?, waits: WaitBroadcaster = WaitBroadcaster()) {
        currentKind = current
        apiSource = api
        self.waits = waits
    }

    /// Where searches go when `--source` is not given.
    public var current: SourceKind {
        get { lock.withLock { currentKind } }
        set { lock.withLock { currentKind = newValue } }
    }

    /// The collection local searches stay inside when `--in` is not given (`collection NAME`, or the config key); nil
    /// searches every collection (the demo corpus only while the store holds nothing else).
    public var collection: String? {
        get { lock.withLock { collectionName } }
        set { lock.withLock { collectionName = newValue } }
    }

    /// The X API source, when credentials are set.
    public var api: XAPISource? {
        get { lock.withLock { apiSource } }
        set { lock.withLock { apiSource = newValue } }
    }

    /// The X API source, or an error telling the user how to get one.
    public func requireAPI() throws -> XAPISource {
        guard let api else {
            throw CommandError(
                "no X API credentials: run 'auth' to add a bearer token, or search the local store with 'source local'")
        }
        return api
    }
}

/// Fans one stream of waits out to the searches running now.
public final class WaitBroadcaster: @unchecked Sendable {
    private let lock = NSLock()
    private var handlers: [Int: @Sendable (WaitNotice) -> Void] = [:]
    private var nextToken = 0

    /// Creates an empty broadcaster.
    public init() {}

    /// Adds a handler; returns a token for `remove`.
    public func add(_ handler: @escaping @Sendable (WaitNotice) -> Void) -> Int {
        lock.withLock {
            nextToken += 1
            handlers[nextToken] = handler
            return nextToken
        }
    }

    /// Removes a handler.
    public func remove(_ token: Int) {
        lock.withLock { _ = handlers.removeValue(forKey: token) }
    }

    /// Sends a wait from the API client to every handler.
    public func send(_ wait: RateLimitWait) {
        let current = lock.withLock { Array(handlers.values) }
        let notice = WaitNotice(reason: wait.description, secondsLeft: wait.secondsLeft)
        for handler in current { handler(notice) }
    }
}
