// Combine's operator specializations on Publishers.Sequence: the operator runs over the elements when it is applied
// and gives the simplest publisher of the result (another Publishers.Sequence, an Optional.Publisher, a
// Result.Publisher, a Just or an Empty), as Combine declares them. Like Combine's, they walk the whole sequence at
// once, so they suit finite sequences.

extension Publishers.Sequence where Failure == Never {
    /// The least element by `areInIncreasingOrder`, or nothing when the sequence is empty.
    @inlinable
    public func min(by areInIncreasingOrder: (Output, Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(sequence.min(by: areInIncreasingOrder))
    }

    /// The greatest element by `areInIncreasingOrder`, or nothing when the sequence is empty.
    @inlinable
    public func max(by areInIncreasingOrder: (Output, Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(sequence.max(by: areInIncreasingOrder))
    }

    /// The first element that satisfies `predicate`, or nothing.
    @inlinable
    public func first(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(sequence.first(where: predicate))
    }
}

extension Publishers.Sequence where Failure == Never, Elements.Element: Comparable {
    /// The least element, or nothing when the sequence is empty.
    @inlinable
    public func min() -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(sequence.min())
    }

    /// The greatest element, or nothing when the sequence is empty.
    @inlinable
    public func max() -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(sequence.max())
    }
}

extension Publishers.Sequence where Elements: Collection, Failure == Never {
    /// The first element, or nothing when the collection is empty.
    @inlinable
    public func first() -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(sequence.first)
    }

    /// The element at `index`, or nothing when the collection has no such index.
    @inlinable
    public func output(at index: Elements.Index) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(sequence.indices.contains(index) ? sequence[index] : nil)
    }
}

extension Publishers.Sequence where Elements: Collection {
    /// The number of elements.
    @inlinable
    public func count() -> Result<Int, Failure>.Publisher {
        Result<Int, Failure>.Publisher(sequence.count)
    }

    /// The elements at the positions in `range`.
    @inlinable
    public func output<R: RangeExpression>(in range: R) -> Publishers.Sequence<[Output], Failure>
    where R.Bound == Elements.Index {
        Publishers.Sequence<[Output], Failure>(sequence: Array(sequence[range]))
    }
}

extension Publishers.Sequence where Elements: RandomAccessCollection, Failure == Never {
    /// The number of elements, known without walking them.
    @inlinable
    public func count() -> Just<Int> {
        Just(sequence.count)
    }
}

extension Publishers.Sequence where Elements: BidirectionalCollection, Failure == Never {
    /// The last element, or nothing when the collection is empty.
    @inlinable
    public func last() -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(sequence.last)
    }

    /// The last element that satisfies `predicate`, or nothing.
    @inlinable
    public func last(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(sequence.last(where: predicate))
    }
}

extension Publishers.Sequence where Elements.Element: Equatable {
    /// The elements without consecutive repeats.
    @inlinable
    public func removeDuplicates() -> Publishers.Sequence<[Output], Failure> {
        var kept: [Output] = []
        for element in sequence where kept.last != element {
            kept.append(element)
        }
        return Publishers.Sequence<[Output], Failure>(sequence: kept)
    }

    /// Whether any element equals `output`.
    @inlinable
    public func contains(_ output: Output) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(sequence.contains(output))
    }
}

extension Publishers.Sequence where Elements: RangeReplaceableCollection {
    /// The elements, then the sequence's own.
    @inlinable
    public func prepend(_ elements: Output...) -> Publishers.Sequence<Elements, Failure> {
        prepend(elements)
    }

    /// The elements, then the sequence's own.
    @inlinable
    public func prepend<S: Sequence>(_ elements: S) -> Publishers.Sequence<Elements, Failure>
    where Output == S.Element {
        var all = Elements()
        all.reserveCapacity(sequence.count + elements.underestimatedCount)
        all.append(contentsOf: elements)
        all.append(contentsOf: sequence)
        return Publishers.Sequence(sequence: all)
    }

    /// The other publisher's elements, then the sequence's own.
    @inlinable
    public func prepend(_ publisher: Publishers.Sequence<Elements, Failure>) -> Publishers.Sequence<Elements, Failure> {
        var all = publisher.sequence
        all.append(contentsOf: sequence)
        return Publishers.Sequence(sequence: all)
    }

    /// The sequence's own elements, then these.
    @inlinable
    public func append(_ elements: Output...) -> Publishers.Sequence<Elements, Failure> {
        append(elements)
    }

    /// The sequence's own elements, then these.
    @inlinable
    public func append<S: Sequence>(_ elements: S) -> Publishers.Sequence<Elements, Failure>
    where Output == S.Element {
        var all = sequence
        all.append(contentsOf: elements)
        return Publishers.Sequence(sequence: all)
    }

    /// The sequence's own elements, then the other publisher's.
    @inlinable
    public func append(_ publisher: Publishers.Sequence<Elements, Failure>) -> Publishers.Sequence<Elements, Failure> {
        append(publisher.sequence)
    }
}

extension Publishers.Sequence {
    /// Whether every element satisfies `predicate` (true for an empty sequence).
    @inlinable
    public func allSatisfy(_ predicate: (Output) -> Bool) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(sequence.allSatisfy(predicate))
    }

    /// Whether every element satisfies `predicate`, or the first error it throws.
    @inlinable
    public func tryAllSatisfy(_ predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        Result<Bool, any Error>.Publisher(Result { try sequence.allSatisfy(predicate) })
    }

    /// All the elements in one array.
    @inlinable
    public func collect() -> Result<[Output], Failure>.Publisher {
        Result<[Output], Failure>.Publisher(Array(sequence))
    }

    /// The transformed elements the transform keeps.
    @inlinable
    public func compactMap<T>(_ transform: (Output) -> T?) -> Publishers.Sequence<[T], Failure> {
        Publishers.Sequence<[T], Failure>(sequence: sequence.compactMap(transform))
    }

    /// Whether any element satisfies `predicate`.
    @inlinable
    public func contains(where predicate: (Output) -> Bool) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(sequence.contains(where: predicate))
    }

    /// Whether any element satisfies `predicate`, or the first error it throws.
    @inlinable
    public func tryContains(where predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        Result<Bool, any Error>.Publisher(Result { try sequence.contains(where: predicate) })
    }

    /// The elements from the first that `predicate` rejects on, lazily.
    @inlinable
    public func drop(
        while predicate: (Elements.Element) -> Bool
    ) -> Publishers.Sequence<DropWhileSequence<Elements>, Failure> {
        Publishers.Sequence<DropWhileSequence<Elements>, Failure>(sequence: sequence.drop(while: predicate))
    }

    /// The elements after the first `count`, lazily.
    @inlinable
    public func dropFirst(_ count: Int = 1) -> Publishers.Sequence<DropFirstSequence<Elements>, Failure> {
        Publishers.Sequence<DropFirstSequence<Elements>, Failure>(sequence: sequence.dropFirst(count))
    }

    /// The elements that satisfy `isIncluded`.
    @inlinable
    public func filter(_ isIncluded: (Output) -> Bool) -> Publishers.Sequence<[Output], Failure> {
        Publishers.Sequence<[Output], Failure>(sequence: sequence.filter(isIncluded))
    }

    /// Finishes at once without the elements.
    @inlinable
    public func ignoreOutput() -> Empty<Output, Failure> {
        Empty()
    }

    /// The transformed elements.
    @inlinable
    public func map<T>(_ transform: (Elements.Element) -> T) -> Publishers.Sequence<[T], Failure> {
        Publishers.Sequence<[T], Failure>(sequence: sequence.map(transform))
    }

    /// The first `maxLength` elements, lazily.
    @inlinable
    public func prefix(_ maxLength: Int) -> Publishers.Sequence<PrefixSequence<Elements>, Failure> {
        Publishers.Sequence<PrefixSequence<Elements>, Failure>(sequence: sequence.prefix(maxLength))
    }

    /// The elements before the first that `predicate` rejects.
    @inlinable
    public func prefix(
        while predicate: (Elements.Element) -> Bool
    ) -> Publishers.Sequence<[Elements.Element], Failure> {
        Publishers.Sequence<[Elements.Element], Failure>(sequence: Array(sequence.prefix(while: predicate)))
    }

    /// The elements folded into one result with `nextPartialResult`.
    @inlinable
    public func reduce<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Result<T, Failure>.Publisher {
        Result<T, Failure>.Publisher(sequence.reduce(initialResult, nextPartialResult))
    }

    /// The elements folded into one result, or the first error `nextPartialResult` throws.
    @inlinable
    public func tryReduce<T>(
        _ initialResult: T, _ nextPartialResult: (T, Output) throws -> T
    ) -> Result<T, any Error>.Publisher {
        Result<T, any Error>.Publisher(Result { try sequence.reduce(initialResult, nextPartialResult) })
    }

    /// Each `nil` element replaced by `output`; the elements stay optional, as in Combine.
    @inlinable
    public func replaceNil<T>(with output: T) -> Publishers.Sequence<[Output], Failure> where Elements.Element == T? {
        Publishers.Sequence<[Output], Failure>(sequence: sequence.map { $0 ?? output })
    }

    /// Every partial result of folding the elements with `nextPartialResult`.
    @inlinable
    public func scan<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Publishers.Sequence<[T], Failure>
    {
        var partial = initialResult
        var results: [T] = []
        results.reserveCapacity(sequence.underestimatedCount)
        for element in sequence {
            partial = nextPartialResult(partial, element)
            results.append(partial)
        }
        return Publishers.Sequence<[T], Failure>(sequence: results)
    }

    /// The same elements, under a failure type of the caller's choice.
    @inlinable
    public func setFailureType<E: Error>(to error: E.Type) -> Publishers.Sequence<Elements, E> {
        Publishers.Sequence<Elements, E>(sequence: sequence)
    }
}
