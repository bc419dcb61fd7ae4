// Combine's operator specializations on Just: with one value known up front, each operator is computed when it is
// applied and returns the simplest publisher of the result (a Just, an Optional.Publisher, a Result.Publisher, a
// Publishers.Sequence or an Empty), as Combine's declarations do.

extension Just where Output: Comparable {
    /// The one value is its own minimum.
    @inlinable
    public func min() -> Just<Output> {
        self
    }

    /// The one value is its own maximum.
    @inlinable
    public func max() -> Just<Output> {
        self
    }
}

extension Just where Output: Equatable {
    /// Whether the one value equals `output`.
    @inlinable
    public func contains(_ output: Output) -> Just<Bool> {
        Just<Bool>(self.output == output)
    }

    /// A single value has no duplicates.
    @inlinable
    public func removeDuplicates() -> Just<Output> {
        self
    }
}

extension Just {
    /// Whether the one value satisfies `predicate`.
    @inlinable
    public func allSatisfy(_ predicate: (Output) -> Bool) -> Just<Bool> {
        Just<Bool>(predicate(output))
    }

    /// Whether the one value satisfies `predicate`, or the error it throws.
    @inlinable
    public func tryAllSatisfy(_ predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        SingleValue.attempt { try predicate(output) }
    }

    /// Whether the one value satisfies `predicate`.
    @inlinable
    public func contains(where predicate: (Output) -> Bool) -> Just<Bool> {
        Just<Bool>(predicate(output))
    }

    /// Whether the one value satisfies `predicate`, or the error it throws.
    @inlinable
    public func tryContains(where predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        SingleValue.attempt { try predicate(output) }
    }

    /// The one value in an array.
    @inlinable
    public func collect() -> Just<[Output]> {
        Just<[Output]>([output])
    }

    /// The one value is its own minimum; `areInIncreasingOrder` is not called.
    @inlinable
    public func min(by areInIncreasingOrder: (Output, Output) -> Bool) -> Just<Output> {
        self
    }

    /// The one value is its own maximum; `areInIncreasingOrder` is not called.
    @inlinable
    public func max(by areInIncreasingOrder: (Output, Output) -> Bool) -> Just<Output> {
        self
    }

    /// The elements, then the one value.
    @inlinable
    public func prepend(_ elements: Output...) -> Publishers.Sequence<[Output], Never> {
        prepend(elements)
    }

    /// The elements, then the one value.
    @inlinable
    public func prepend<S: Sequence>(_ elements: S) -> Publishers.Sequence<[Output], Never> where Output == S.Element {
        var all: [Output] = []
        all.reserveCapacity(elements.underestimatedCount + 1)
        all.append(contentsOf: elements)
        all.append(output)
        return Publishers.Sequence(sequence: all)
    }

    /// The one value, then the elements.
    @inlinable
    public func append(_ elements: Output...) -> Publishers.Sequence<[Output], Never> {
        append(elements)
    }

    /// The one value, then the elements.
    @inlinable
    public func append<S: Sequence>(_ elements: S) -> Publishers.Sequence<[Output], Never> where Output == S.Element {
        var all = [output]
        all.append(contentsOf: elements)
        return Publishers.Sequence(sequence: all)
    }

    /// One value counted.
    @inlinable
    public func count() -> Just<Int> {
        Just<Int>(1)
    }

    /// Nothing left after dropping one or more; the value itself when dropping none. Traps on a negative count.
    @inlinable
    public func dropFirst(_ count: Int = 1) -> Optional<Output>.Publisher {
        precondition(count >= 0, "count must not be negative")
        return Optional<Output>.Publisher(count == 0 ? output : nil)
    }

    /// The value, unless `predicate` drops it.
    @inlinable
    public func drop(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(SingleValue.kept(output, unlessDroppedBy: predicate))
    }

    /// The one value is the first.
    @inlinable
    public func first() -> Just<Output> {
        self
    }

    /// The value, if it satisfies `predicate`.
    @inlinable
    public func first(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(SingleValue.kept(output, where: predicate))
    }

    /// The one value is the last.
    @inlinable
    public func last() -> Just<Output> {
        self
    }

    /// The value, if it satisfies `predicate`.
    @inlinable
    public func last(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(SingleValue.kept(output, where: predicate))
    }

    /// The value, if it satisfies `isIncluded`.
    @inlinable
    public func filter(_ isIncluded: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(SingleValue.kept(output, where: isIncluded))
    }

    /// Finishes at once without the value.
    @inlinable
    public func ignoreOutput() -> Empty<Output, Never> {
        Empty()
    }

    /// The transformed value.
    @inlinable
    public func map<T>(_ transform: (Output) -> T) -> Just<T> {
        Just<T>(transform(output))
    }

    /// The transformed value, or the error the transform throws.
    @inlinable
    public func tryMap<T>(_ transform: (Output) throws -> T) -> Result<T, any Error>.Publisher {
        SingleValue.attempt { try transform(output) }
    }

    /// The transformed value, if the transform gives one.
    @inlinable
    public func compactMap<T>(_ transform: (Output) -> T?) -> Optional<T>.Publisher {
        Optional<T>.Publisher(transform(output))
    }

    /// The value, under a failure type of the caller's choice; `transform` is never called, Just does not fail.
    @inlinable
    public func mapError<E: Error>(_ transform: (Never) -> E) -> Result<Output, E>.Publisher {
        Result<Output, E>.Publisher(output)
    }

    /// The value, under a failure type of the caller's choice.
    @inlinable
    public func setFailureType<E: Error>(to failureType: E.Type) -> Result<Output, E>.Publisher {
        Result<Output, E>.Publisher(output)
    }

    /// The value if `index` is 0, nothing otherwise. Traps on a negative index.
    @inlinable
    public func output(at index: Int) -> Optional<Output>.Publisher {
        precondition(index >= 0, "index must not be negative")
        return Optional<Output>.Publisher(index == 0 ? output : nil)
    }

    /// The value if the range starts at 0 (Combine's rule, which keeps the value even for an empty `0..<0`), nothing
    /// otherwise.
    @inlinable
    public func output<R: RangeExpression>(in range: R) -> Optional<Output>.Publisher where R.Bound == Int {
        Optional<Output>.Publisher(range.relative(to: 0..<Int.max).lowerBound == 0 ? output : nil)
    }

    /// The value unless `maxLength` is 0. Traps on a negative length.
    @inlinable
    public func prefix(_ maxLength: Int) -> Optional<Output>.Publisher {
        precondition(maxLength >= 0, "maxLength must not be negative")
        return Optional<Output>.Publisher(maxLength > 0 ? output : nil)
    }

    /// The value, if it satisfies `predicate`.
    @inlinable
    public func prefix(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(SingleValue.kept(output, where: predicate))
    }

    /// `nextPartialResult` applied once, to `initialResult` and the value.
    @inlinable
    public func reduce<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Result<T, Never>.Publisher {
        Result<T, Never>.Publisher(nextPartialResult(initialResult, output))
    }

    /// `nextPartialResult` applied once, or the error it throws.
    @inlinable
    public func tryReduce<T>(
        _ initialResult: T, _ nextPartialResult: (T, Output) throws -> T
    ) -> Result<T, any Error>.Publisher {
        SingleValue.attempt { try nextPartialResult(initialResult, output) }
    }

    /// `nextPartialResult` applied once, to `initialResult` and the value.
    @inlinable
    public func scan<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Result<T, Never>.Publisher {
        Result<T, Never>.Publisher(nextPartialResult(initialResult, output))
    }

    /// `nextPartialResult` applied once, or the error it throws.
    @inlinable
    public func tryScan<T>(
        _ initialResult: T, _ nextPartialResult: (T, Output) throws -> T
    ) -> Result<T, any Error>.Publisher {
        SingleValue.attempt { try nextPartialResult(initialResult, output) }
    }

    /// A single value has no duplicates; `predicate` is not called.
    @inlinable
    public func removeDuplicates(by predicate: (Output, Output) -> Bool) -> Just<Output> {
        self
    }

    /// The value, or the error `predicate` throws when comparing the value with itself.
    @inlinable
    public func tryRemoveDuplicates(
        by predicate: (Output, Output) throws -> Bool
    ) -> Result<Output, any Error>.Publisher {
        SingleValue.attempt { try SingleValue.comparedWithItself(output, by: predicate) }
    }

    /// Just never fails, so there is nothing to replace.
    @inlinable
    public func replaceError(with output: Output) -> Just<Output> {
        self
    }

    /// Just is never empty, so there is nothing to replace.
    @inlinable
    public func replaceEmpty(with output: Output) -> Just<Output> {
        self
    }

    /// Just never fails, so there is nothing to retry.
    @inlinable
    public func retry(_ retries: Int) -> Just<Output> {
        self
    }
}
