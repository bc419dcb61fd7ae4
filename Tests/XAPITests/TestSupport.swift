import Foundation
import Synchronization
import Testing
import TweetKit
import XAPIStub

@testable import XAPI

/// A thread-safe list tests append to from hooks (wait events, log lines) and read afterwards.
final class Recorder<Element: Sendable>: Sendable {
    private let items = Mutex<[Element]>([])
    func append(_ item: Element) { items.withLock { $0.append(item) } }
    var all: [Element] { items.withLock { $0 } }
}

/// Backoff in milliseconds, so retry tests take a fraction of a second.
let fastRetry = RetryPolicy(maxAttempts: 5, baseDelay: 0.01, maxDelay: 0.04, rateLimitMargin: 0.1)

/// A clock whose sleeps return at once and move its time forward: a 15-minute wait costs nothing.
final class VirtualClock: Sendable {
    private let state: Mutex<(now: Date, sleeps: [Double])>

    init(start: Date = Date()) { state = Mutex((start, [])) }

    var now: Date { state.withLock { $0.now } }
    var sleeps: [Double] { state.withLock { $0.sleeps } }
    var totalSlept: Double { sleeps.reduce(0, +) }

    var clock: XAPIClock {
        XAPIClock(
            now: { [self] in now },
            sleep: { [self] duration in
                try Task.checkCancellation()
                state.withLock { state in
                    state.now = state.now.addingTimeInterval(duration.seconds)
                    state.sleeps.append(duration.seconds)
                }
                await Task.yield()
            })
    }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}

/// A stub and a client pointed at it, with every hook recorded.
struct Harness {
    let stub: StubServer
    let client: XAPIClient
    let waits = Recorder<RateLimitWait>()
    let logs = Recorder<String>()

    init(
        token: String? = StubServer.defaultBearerToken, retry: RetryPolicy = fastRetry, clock: XAPIClock = .system,
        requestTimeout: TimeInterval = 10, stub: StubServer? = nil
    ) throws {
        let stub = try stub ?? StubServer()
        self.stub = stub
        var settings = XAPISettings(baseURL: stub.baseURL, requestTimeout: requestTimeout, version: "9.9.9-test")
        settings.resourceTimeout = max(requestTimeout, 30)
        let waits = self.waits
        let logs = self.logs
        self.client = XAPIClient(
            configuration: .init(
                settings: settings, retry: retry, clock: clock, onWait: { waits.append($0) }, log: { logs.append($0) }),
            token: token.flatMap(BearerToken.init))
        TokenLeakLedger.shared.observe(logs: logs)
    }

    func get(_ path: String, _ endpoint: String, _ query: [URLQueryItem] = []) async throws -> Data {
        try await client.get(path, endpoint: endpoint, query: query)
    }

    func json(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }
}

/// Catches an error from an async call, for assertions on its case and message.
func capture(_ body: () async throws -> Void) async -> (any Error)? {
    do {
        try await body()
        return nil
    } catch {
        TokenLeakLedger.shared.observe(error: error)
        return error
    }
}

/// Every error message and log line the suite produced, so one test can check none holds a token.
final class TokenLeakLedger: Sendable {
    static let shared = TokenLeakLedger()
    private let texts = Mutex<[String]>([])
    private let recorders = Mutex<[Recorder<String>]>([])

    func observe(error: any Error) {
        let forms = [
            String(describing: error), String(reflecting: error), "\(error)", error.localizedDescription,
            {
                var out = ""
                dump(error, to: &out)
                return out
            }(),
        ]
        texts.withLock { $0 += forms }
    }

    func observe(logs: Recorder<String>) { recorders.withLock { $0.append(logs) } }

    func observe(text: String) { texts.withLock { $0.append(text) } }

    var everything: [String] {
        texts.withLock { $0 } + recorders.withLock { $0 }.flatMap(\.all)
    }
}

/// The page cache TweetStore will provide, kept in memory for these tests.
actor InMemoryPageCache: PageCache {
    struct Entry: Hashable {
        var key: String
        var cursor: String?
    }

    private(set) var pages: [Entry: CachedPage] = [:]
    private(set) var writes: [Entry] = []

    func storePage(_ page: Page, key: String, cursor: String?, fetchedAt: Date) async throws {
        let entry = Entry(key: key, cursor: cursor)
        pages[entry] = CachedPage(page: page, fetchedAt: fetchedAt)
        writes.append(entry)
    }

    func cachedPage(key: String, cursor: String?) async throws -> CachedPage? {
        pages[Entry(key: key, cursor: cursor)]
    }
}

/// Polls until `condition` holds or about thirty seconds pass: long enough for a loaded CI machine, and it returns as
/// soon as the condition holds.
func eventually(_ condition: () -> Bool) async throws {
    for _ in 0..<3000 where !condition() { try await Task.sleep(for: .milliseconds(10)) }
}
