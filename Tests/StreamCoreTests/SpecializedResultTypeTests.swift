import StreamCore
import XCTest

/// Combine's specialized operators on the value-known-up-front publishers return the simplest publisher of the
/// result; these tests pin the result types (by assigning to an explicit type) and the values.
final class SpecializedResultTypeTests: XCTestCase {
    private struct Boom: Error, Equatable {}

    func testPredicateOperatorsKeepOrDropTheOneValueAlike() {
        let isSmall: (Int) -> Bool = { $0 < 5 }
        for value in [3, 7] {
            let expected: Int? = isSmall(value) ? value : nil
            XCTAssertEqual(Just(value).first(where: isSmall).output, expected)
            XCTAssertEqual(Just(value).last(where: isSmall).output, expected)
            XCTAssertEqual(Just(value).prefix(while: isSmall).output, expected)
            XCTAssertEqual(Just(value).drop(while: isSmall).output, isSmall(value) ? nil : value)
            let optional = Optional(value).publisher
            XCTAssertEqual(optional.filter(isSmall).output, expected)
            XCTAssertEqual(optional.prefix(while: isSmall).output, expected)
            XCTAssertEqual(optional.drop(while: isSmall).output, isSmall(value) ? nil : value)
        }
        XCTAssertNil(Optional<Int>.none.publisher.first(where: { _ in true }).output)
        var compared: [[Int]] = []
        let maximum = Result<Int, Never>.Publisher(8).tryMax { lhs, rhs in
            compared.append([lhs, rhs])
            return false
        }
        XCTAssertEqual(try maximum.result.get(), 8)
        XCTAssertEqual(compared, [[8, 8]], "the throwing form compares the value with itself")
        let failing: Result<Int, any Error>.Publisher = Just(2).tryRemoveDuplicates { _, _ in throw Boom() }
        XCTAssertThrowsError(try failing.result.get())
    }

    func testJustOperatorsStayJustOrBecomeTheSimplestPublisher() {
        let mapped: Just<String> = Just(42).map { "\($0)" }
        XCTAssertEqual(mapped.output, "42")
        let counted: Just<Int> = Just("x").count()
        XCTAssertEqual(counted, Just(1))
        let filtered: Optional<Int>.Publisher = Just(3).filter { $0 > 5 }
        XCTAssertNil(filtered.output)
        let kept: Optional<Int>.Publisher = Just(7).dropFirst(0)
        XCTAssertEqual(kept.output, 7)
        let thrown: Result<Int, any Error>.Publisher = Just(1).tryMap { _ in throw Boom() }
        XCTAssertThrowsError(try thrown.result.get())
        let reduced: Result<Int, Never>.Publisher = Just(4).reduce(2, +)
        XCTAssertEqual(reduced.result, .success(6))
        let typed: Result<Int, Boom>.Publisher = Just(9).setFailureType(to: Boom.self)
        XCTAssertEqual(typed.result, .success(9))
        let around: Publishers.Sequence<[Int], Never> = Just(3).prepend(1, 2).append(4)
        XCTAssertEqual(around.sequence, [1, 2, 3, 4])
        XCTAssertTrue(Just(1).ignoreOutput().completeImmediately)
        // Combine keeps the value for any range starting at 0, even an empty one.
        XCTAssertEqual(Just(5).output(in: 0..<0).output, 5)
        XCTAssertNil(Just(5).output(in: 1..<3).output)
    }

    func testJustComparatorsAreNotCalledButTheTryFormsAre() {
        var calls = 0
        _ = Just(1).min { _, _ in
            calls += 1
            return true
        }
        _ = Just(1).removeDuplicates { _, _ in
            calls += 1
            return true
        }
        XCTAssertEqual(calls, 0)
        let compared = Just(1).tryRemoveDuplicates { lhs, rhs in
            calls += 1
            XCTAssertEqual(lhs, rhs)
            throw Boom()
        }
        XCTAssertEqual(calls, 1)
        XCTAssertThrowsError(try compared.result.get())
    }

    func testOptionalPublisherOperatorsStayOptional() {
        let some = Optional(4).publisher
        let none = Optional<Int>.none.publisher
        let doubled: Optional<Int>.Publisher = some.map { $0 * 2 }
        XCTAssertEqual(doubled.output, 8)
        XCTAssertNil(none.map { $0 * 2 }.output)
        let collected: Optional<[Int]>.Publisher = none.collect()
        XCTAssertEqual(collected.output, [])
        XCTAssertNil(none.count().output, "no value gives no count")
        let replaced: Just<Int> = none.replaceEmpty(with: 10)
        XCTAssertEqual(replaced.output, 10)
        XCTAssertEqual(some.contains(4).output, true)
        XCTAssertEqual(some.output(in: ...0).output, 4)
        XCTAssertNil(some.output(in: 0..<0).output)
    }

    func testResultPublisherOperatorsPassFailuresThrough() {
        let failed = Result<Int, Boom>.Publisher(Boom())
        let succeeded = Result<Int, Boom>.Publisher(3)
        let mapped: Result<String, Boom>.Publisher = succeeded.map { "\($0)" }
        XCTAssertEqual(mapped.result, .success("3"))
        XCTAssertEqual(failed.map { "\($0)" }.result, .failure(Boom()))
        let rescued: Result<Int, Never>.Publisher = failed.replaceError(with: 0)
        XCTAssertEqual(rescued.result, .success(0))
        var calls = 0
        let checked = failed.tryContains { _ in
            calls += 1
            return true
        }
        XCTAssertEqual(calls, 0, "a failure is passed on without calling the predicate")
        XCTAssertThrowsError(try checked.result.get()) { XCTAssertTrue($0 is Boom) }
        let minimum = succeeded.tryMin { _, _ in
            calls += 1
            return false
        }
        XCTAssertEqual(calls, 1, "the try form compares the value with itself")
        XCTAssertEqual(try minimum.result.get(), 3)
        // Combine's ignoreOutput finishes even for a failing result.
        let ignored: Empty<Int, Boom> = failed.ignoreOutput()
        XCTAssertTrue(ignored.completeImmediately)
    }

    func testSequenceOperatorsComputeAtOnce() {
        let numbers = [3, 1, 1, 2].publisher
        let mapped: Publishers.Sequence<[Int], Never> = numbers.map { $0 * 10 }
        XCTAssertEqual(mapped.sequence, [30, 10, 10, 20])
        let allPositive: Result<Bool, Never>.Publisher = numbers.allSatisfy { $0 > 0 }
        XCTAssertEqual(allPositive.result, .success(true))
        let counted: Just<Int> = numbers.count()
        XCTAssertEqual(counted.output, 4)
        let lazyCount: Result<Int, Never>.Publisher = [1, 2, 3].lazy.filter { $0 > 1 }.publisher.count()
        XCTAssertEqual(lazyCount.result, .success(2))
        let least: Optional<Int>.Publisher = numbers.min()
        XCTAssertEqual(least.output, 1)
        XCTAssertEqual(numbers.removeDuplicates().sequence, [3, 1, 2])
        XCTAssertEqual(numbers.scan(0, +).sequence, [3, 4, 5, 7])
        XCTAssertEqual(Array(numbers.dropFirst(2).sequence), [1, 2])
        XCTAssertEqual(numbers.output(at: 3).output, 2)
        XCTAssertNil(numbers.output(at: 9).output)
        XCTAssertEqual(numbers.output(in: 1..<3).sequence, [1, 1])
        XCTAssertEqual(numbers.append(9).prepend(0).sequence, [0, 3, 1, 1, 2, 9])
        let optionals: Publishers.Sequence<[Int?], Never> = [1, nil].publisher.replaceNil(with: 5)
        XCTAssertEqual(optionals.sequence, [1, 5])
        XCTAssertThrowsError(try numbers.tryReduce(0) { _, _ in throw Boom() }.result.get())
    }

    func testSpecializedResultsStillPublish() {
        var received: [Int] = []
        _ = [1, 2, 3].publisher.filter { $0 != 2 }.sink { received.append($0) }
        _ = Just(4).map { $0 + 1 }.sink { received.append($0) }
        XCTAssertEqual(received, [1, 3, 5])
    }
}
