import Foundation
import Synchronization
import TerminalTesting
import TweetKit
import TweetStore
import XAPI
import XAPIStub

@testable import TweetShell

/// A clock whose sleeps return at once and move its time forward, so a rate-limit wait of minutes costs nothing.
final class VirtualClock: Sendable {
    private let state: Mutex<(now: Date, slept: Double)>

    init(start: Date = Date()) { state = Mutex((start, 0)) }

    var slept: Double { state.withLock { $0.slept } }

    var clock: XAPIClock {
        XAPIClock(
            now: { [self] in state.withLock { $0.now } },
            sleep: { [self] duration in
                try Task.checkCancellation()
                let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
                state.withLock { state in
                    state.now = state.now.addingTimeInterval(seconds)
                    state.slept += seconds
                }
                await Task.yield()
            })
    }
}

/// A thread-safe list hooks append to.
final class Recorder<Element: Sendable>: Sendable {
    private let items = Mutex<[Element]>([])
    func append(_ item: Element) { items.withLock { $0.append(item) } }
    var all: [Element] { items.withLock { $0 } }
}

/// The loopback stub answering any id, a store on a real file, and the real client and source pointed at the stub.
struct HydrateHarness {
    let stub: StubServer
    let directory = TemporaryDirectory(prefix: "tweetsh-hydrate")
    let store: TweetStore
    let source: XAPISource
    let waits = Recorder<RateLimitWait>()

    init(clock: XAPIClock = .system, rateLimit: Int = 450) throws {
        stub = try StubServer(configuration: StubServer.Configuration(rateLimit: rateLimit))
        stub.lookupWorld.answersAnyID = true
        store = try TweetStore(location: .file(directory.file("store.sqlite")))
        let waits = self.waits
        let client = XAPIClient(
            configuration: .init(
                settings: XAPISettings(baseURL: stub.baseURL, requestTimeout: 10),
                retry: RetryPolicy(baseDelay: 0.01, maxDelay: 0.04, rateLimitMargin: 2), clock: clock,
                onWait: { waits.append($0) }),
            token: BearerToken(StubServer.defaultBearerToken))
        source = XAPISource(client: client)
    }

    /// Ids of the lookups the stub answered, one list per request, leaving out requests the client hung up on.
    var answeredBatches: [[TweetID]] {
        // A request asked again is equal to the one abandoned: only one of them is left out.
        var abandoned = stub.abandonedRequests
        return stub.requests(path: "/2/tweets").filter { request in
            guard let index = abandoned.firstIndex(of: request) else { return true }
            abandoned.remove(at: index)
            return false
        }.map { request in
            (request.query["ids"] ?? "").split(separator: ",").compactMap { TweetID($0) }
        }
    }

    /// `count` consecutive ids from a base that looks like a 2021 tweet id.
    static func ids(_ count: Int) -> [TweetID] {
        (0..<count).map { TweetID(1_460_000_000_000_000_000 + UInt64($0) * 7) }
    }
}
