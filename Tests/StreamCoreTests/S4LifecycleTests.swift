import StreamCore
import StreamTesting
import XCTest

/// A text stream that drops what it is given, so print's lines stay out of the test log.
private struct DiscardStream: TextOutputStream {
    mutating func write(_ string: String) {}
}

/// Each S4 operator must let go of its closures and its downstream once the stream ends, by completion or by cancel,
/// so a view model captured in a closure is freed with the subscription.
final class S4LifecycleTests: XCTestCase {
    private typealias Make = (ManualPublisher<Int, S4Error>, S4Token) -> AnyCancellable

    private let operators: [(String, Make)] = [
        (
            "reduce",
            { upstream, token in
                upstream.reduce(0) {
                    _ = token
                    return $0 + $1
                }.sink(receiveCompletion: { _ in }, receiveValue: { _ in })
            }
        ),
        (
            "tryFirst",
            { upstream, token in
                upstream.tryFirst { _ in
                    _ = token
                    return false
                }.sink(receiveCompletion: { _ in }, receiveValue: { _ in })
            }
        ),
        (
            "contains",
            { upstream, token in
                upstream.contains { _ in
                    _ = token
                    return false
                }.sink(receiveCompletion: { _ in }, receiveValue: { _ in })
            }
        ),
        (
            "removeDuplicates",
            { upstream, token in
                upstream.removeDuplicates { _, _ in
                    _ = token
                    return false
                }.sink(receiveCompletion: { _ in }, receiveValue: { _ in })
            }
        ),
        (
            "prefixWhile",
            { upstream, token in
                upstream.prefix { _ in
                    _ = token
                    return true
                }.sink(receiveCompletion: { _ in }, receiveValue: { _ in })
            }
        ),
        (
            "dropWhile",
            { upstream, token in
                upstream.drop { _ in
                    _ = token
                    return true
                }.sink(receiveCompletion: { _ in }, receiveValue: { _ in })
            }
        ),
        (
            "dropFirst",
            { upstream, token in
                upstream.dropFirst().sink(receiveCompletion: { _ in }, receiveValue: { _ in _ = token })
            }
        ),
        (
            "collect(2)",
            { upstream, token in upstream.collect(2).sink(receiveCompletion: { _ in }, receiveValue: { _ in _ = token })
            }
        ),
        (
            "prefix(3)",
            { upstream, token in upstream.prefix(3).sink(receiveCompletion: { _ in }, receiveValue: { _ in _ = token })
            }
        ),
        ("replaceError", { upstream, token in upstream.replaceError(with: 0).sink { _ in _ = token } }),
        (
            "replaceEmpty",
            { upstream, token in
                upstream.replaceEmpty(with: 0).sink(receiveCompletion: { _ in }, receiveValue: { _ in _ = token })
            }
        ),
        (
            "mapError",
            { upstream, token in
                upstream.mapError {
                    _ = token
                    return $0
                }.sink(receiveCompletion: { _ in }, receiveValue: { _ in })
            }
        ),
        (
            "ignoreOutput",
            { upstream, token in
                upstream.ignoreOutput().sink(receiveCompletion: { _ in _ = token }, receiveValue: { _ in })
            }
        ),
        (
            "handleEvents",
            { upstream, token in
                upstream.handleEvents(receiveOutput: { _ in _ = token }).sink(
                    receiveCompletion: { _ in }, receiveValue: { _ in })
            }
        ),
        (
            "print",
            { upstream, token in
                upstream.print("", to: DiscardStream()).sink(
                    receiveCompletion: { _ in }, receiveValue: { _ in _ = token })
            }
        ),
    ]

    func testEverythingIsReleasedAfterCompletion() {
        for (name, make) in operators {
            weak var weakToken: S4Token?
            let upstream = ManualPublisher<Int, S4Error>()
            var cancellable: AnyCancellable?
            do {
                let token = S4Token()
                weakToken = token
                cancellable = make(upstream, token)
            }
            XCTAssertNotNil(weakToken, name)
            upstream.send(completion: .finished)
            XCTAssertNil(weakToken, "\(name) still holds its closures after completion")
            _ = cancellable
        }
    }

    func testEverythingIsReleasedAfterCancel() {
        for (name, make) in operators {
            weak var weakToken: S4Token?
            let upstream = ManualPublisher<Int, S4Error>()
            var cancellable: AnyCancellable?
            do {
                let token = S4Token()
                weakToken = token
                cancellable = make(upstream, token)
            }
            cancellable?.cancel()
            XCTAssertNil(weakToken, "\(name) still holds its closures after cancel")
            XCTAssertEqual(upstream.cancelCount, 1, name)
        }
    }
}
