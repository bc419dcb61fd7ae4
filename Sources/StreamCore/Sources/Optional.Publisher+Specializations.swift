// Combine's operator specializations on Optional.Publisher: the operator is applied to the value (if any) at once and
// gives another Optional.Publisher (a Just for replaceEmpty, an Empty for ignoreOutput), as Combine declares them.

extension Optional.Publisher where Wrapped: Comparable {
    /// The value, if any, is its own minimum.
    @inlinable
    public func min() -> Optional<Wrapped>.Publisher {
        self
    }

    /// The value, if any, is its own maximum.
    @inlinable
    public func max() -> Optional<Wrapped>.Publisher {
        self
    }
}

extension Optional.Publisher where Wrapped: Equatable {
    /// Whether the value equals `output`; no value gives no answer.
    @inlinable
    public func contains(_ output: Output) -> Optional<Bool>.Publisher {
        Optional<Bool>.Publisher(self.output.map { $0 == output })
    }

    /// A single value has no duplicates.
    @inlinable
    public func removeDuplicates() -> Optional<Wrapped>.Publisher {
        self
    }
}

extension Optional.Publisher {
    /// Whether the value satisfies `predicate`; no value gives no answer.
    @inlinable
    public func allSatisfy(_ predicate: (Output) -> Bool) -> Optional<Bool>.Publisher {
        Optional<Bool>.Publisher(output.map(predicate))
    }

    /// The value in an array, or an empty array when there is none.
    @inlinable
    public func collect() -> Optional<[Output]>.Publisher {
        Optional<[Output]>.Publisher(output.map { [$0] } ?? [])
    }

    /// The transformed value, if there is a value and the transform gives one.
    @inlinable
    public func compactMap<T>(_ transform: (Output) -> T?) -> Optional<T>.Publisher {
        Optional<T>.Publisher(output.flatMap(transform))
    }

    /// The value, if any, is its own minimum; `areInIncreasingOrder` is not called.
    @inlinable
    public func min(by areInIncreasingOrder: (Output, Output) -> Bool) -> Optional<Output>.Publisher {
        self
    }

    /// The value, if any, is its own maximum; `areInIncreasingOrder` is not called.
    @inlinable
    public func max(by areInIncreasingOrder: (Output, Output) -> Bool) -> Optional<Output>.Publisher {
        self
    }

    /// Whether the value satisfies `predicate`; no value gives no answer.
    @inlinable
    public func contains(where predicate: (Output) -> Bool) -> Optional<Bool>.Publisher {
        Optional<Bool>.Publisher(output.map(predicate))
    }

    /// One if there is a value; no value gives no count (Combine's choice: the publisher just finishes).
    @inlinable
    public func count() -> Optional<Int>.Publisher {
        Optional<Int>.Publisher(output.map { _ in 1 })
    }

    /// Nothing left after dropping one or more; the value itself when dropping none. Traps on a negative count.
    @inlinable
    public func dropFirst(_ count: Int = 1) -> Optional<Output>.Publisher {
        precondition(count >= 0, "count must not be negative")
        return count == 0 ? self : Optional<Output>.Publisher(nil)
    }

    /// The value, unless `predicate` drops it.
    @inlinable
    public func drop(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(SingleValue.kept(output, unlessDroppedBy: predicate))
    }

    /// The value, if any, is the first.
    @inlinable
    public func first() -> Optional<Output>.Publisher {
        self
    }

    /// The value, if it satisfies `predicate`.
    @inlinable
    public func first(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(SingleValue.kept(output, where: predicate))
    }

    /// The value, if any, is the last.
    @inlinable
    public func last() -> Optional<Output>.Publisher {
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

    /// The transformed value, if there is one.
    @inlinable
    public func map<T>(_ transform: (Output) -> T) -> Optional<T>.Publisher {
        Optional<T>.Publisher(output.map(transform))
    }

    /// The value if `index` is 0, nothing otherwise. Traps on a negative index.
    @inlinable
    public func output(at index: Int) -> Optional<Output>.Publisher {
        precondition(index >= 0, "index must not be negative")
        return index == 0 ? self : Optional<Output>.Publisher(nil)
    }

    /// The value if the range holds index 0. Traps on a negative lower bound, and on an upper bound within one of
    /// `Int.max` (Combine's limit).
    @inlinable
    public func output<R: RangeExpression>(in range: R) -> Optional<Output>.Publisher where R.Bound == Int {
        let indices = range.relative(to: 0..<Int.max)
        precondition(indices.lowerBound >= 0, "lower bound must not be negative")
        precondition(indices.upperBound < Int.max - 1, "upper bound is too large")
        return indices.contains(0) ? self : Optional<Output>.Publisher(nil)
    }

    /// The value unless `maxLength` is 0. Traps on a negative length.
    @inlinable
    public func prefix(_ maxLength: Int) -> Optional<Output>.Publisher {
        precondition(maxLength >= 0, "maxLength must not be negative")
        return maxLength > 0 ? self : Optional<Output>.Publisher(nil)
    }

    /// The value, if it satisfies `predicate`.
    @inlinable
    public func prefix(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(SingleValue.kept(output, where: predicate))
    }

    /// `nextPartialResult` applied once to `initialResult` and the value; no value gives no result.
    @inlinable
    public func reduce<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Optional<T>.Publisher {
        Optional<T>.Publisher(output.map { nextPartialResult(initialResult, $0) })
    }

    /// `nextPartialResult` applied once to `initialResult` and the value; no value gives no result.
    @inlinable
    public func scan<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Optional<T>.Publisher {
        Optional<T>.Publisher(output.map { nextPartialResult(initialResult, $0) })
    }

    /// A single value has no duplicates; `predicate` is not called.
    @inlinable
    public func removeDuplicates(by predicate: (Output, Output) -> Bool) -> Optional<Output>.Publisher {
        self
    }

    /// Optional.Publisher never fails, so there is nothing to replace.
    @inlinable
    public func replaceError(with output: Output) -> Optional<Output>.Publisher {
        self
    }

    /// The value, or `output` when there is none.
    @inlinable
    public func replaceEmpty(with output: Output) -> Just<Output> {
        Just(self.output ?? output)
    }

    /// Optional.Publisher never fails, so there is nothing to retry.
    @inlinable
    public func retry(_ times: Int) -> Optional<Output>.Publisher {
        self
    }
}
