// Combine's operator specializations on Result.Publisher: the operator is applied to the result at once and gives
// another Result.Publisher (an Empty for ignoreOutput), as Combine declares them. A failure passes through untouched;
// the throwing forms turn a thrown error into the failure, typed `any Error`.

extension Result.Publisher where Output: Equatable {
    /// Whether the value equals `output`; a failure stays a failure.
    @inlinable
    public func contains(_ output: Output) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(result.map { $0 == output })
    }

    /// A single value has no duplicates.
    @inlinable
    public func removeDuplicates() -> Result<Output, Failure>.Publisher {
        self
    }
}

extension Result.Publisher where Output: Comparable {
    /// The value is its own minimum.
    @inlinable
    public func min() -> Result<Output, Failure>.Publisher {
        self
    }

    /// The value is its own maximum.
    @inlinable
    public func max() -> Result<Output, Failure>.Publisher {
        self
    }
}

extension Result.Publisher where Failure == Never {
    /// The value, under a failure type of the caller's choice.
    @inlinable
    public func setFailureType<E: Error>(to failureType: E.Type) -> Result<Output, E>.Publisher {
        Result<Output, E>.Publisher(result.get())
    }
}

extension Result.Publisher {
    /// Runs a throwing step on the value, turning a thrown error, or the existing failure, into `any Error`.
    @inlinable
    internal func attempt<T>(_ body: (Output) throws -> T) -> Result<T, any Error>.Publisher {
        switch result {
        case .success(let output):
            return SingleValue.attempt { try body(output) }
        case .failure(let error):
            return Result<T, any Error>.Publisher(.failure(error))
        }
    }

    /// Whether the value satisfies `predicate`.
    @inlinable
    public func allSatisfy(_ predicate: (Output) -> Bool) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(result.map(predicate))
    }

    /// Whether the value satisfies `predicate`, or the error it throws.
    @inlinable
    public func tryAllSatisfy(_ predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        attempt(predicate)
    }

    /// Whether the value satisfies `predicate`.
    @inlinable
    public func contains(where predicate: (Output) -> Bool) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(result.map(predicate))
    }

    /// Whether the value satisfies `predicate`, or the error it throws.
    @inlinable
    public func tryContains(where predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        attempt(predicate)
    }

    /// The value in an array.
    @inlinable
    public func collect() -> Result<[Output], Failure>.Publisher {
        Result<[Output], Failure>.Publisher(result.map { [$0] })
    }

    /// The value is its own minimum; `areInIncreasingOrder` is not called.
    @inlinable
    public func min(by areInIncreasingOrder: (Output, Output) -> Bool) -> Result<Output, Failure>.Publisher {
        self
    }

    /// The value, or the error `areInIncreasingOrder` throws when comparing the value with itself.
    @inlinable
    public func tryMin(
        by areInIncreasingOrder: (Output, Output) throws -> Bool
    ) -> Result<Output, any Error>.Publisher {
        attempt { try SingleValue.comparedWithItself($0, by: areInIncreasingOrder) }
    }

    /// The value is its own maximum; `areInIncreasingOrder` is not called.
    @inlinable
    public func max(by areInIncreasingOrder: (Output, Output) -> Bool) -> Result<Output, Failure>.Publisher {
        self
    }

    /// The value, or the error `areInIncreasingOrder` throws when comparing the value with itself.
    @inlinable
    public func tryMax(
        by areInIncreasingOrder: (Output, Output) throws -> Bool
    ) -> Result<Output, any Error>.Publisher {
        attempt { try SingleValue.comparedWithItself($0, by: areInIncreasingOrder) }
    }

    /// One value counted.
    @inlinable
    public func count() -> Result<Int, Failure>.Publisher {
        Result<Int, Failure>.Publisher(result.map { _ in 1 })
    }

    /// The value is the first.
    @inlinable
    public func first() -> Result<Output, Failure>.Publisher {
        self
    }

    /// The value is the last.
    @inlinable
    public func last() -> Result<Output, Failure>.Publisher {
        self
    }

    /// Finishes at once, without the value and without the failure (Combine's choice).
    @inlinable
    public func ignoreOutput() -> Empty<Output, Failure> {
        Empty()
    }

    /// The transformed value.
    @inlinable
    public func map<T>(_ transform: (Output) -> T) -> Result<T, Failure>.Publisher {
        Result<T, Failure>.Publisher(result.map(transform))
    }

    /// The transformed value, or the error the transform throws.
    @inlinable
    public func tryMap<T>(_ transform: (Output) throws -> T) -> Result<T, any Error>.Publisher {
        attempt(transform)
    }

    /// The failure transformed.
    @inlinable
    public func mapError<E: Error>(_ transform: (Failure) -> E) -> Result<Output, E>.Publisher {
        Result<Output, E>.Publisher(result.mapError(transform))
    }

    /// The value, or `output` in place of the failure.
    @inlinable
    public func replaceError(with output: Output) -> Result<Output, Never>.Publisher {
        switch result {
        case .success(let value): return Result<Output, Never>.Publisher(value)
        case .failure: return Result<Output, Never>.Publisher(output)
        }
    }

    /// A result is never empty, so there is nothing to replace.
    @inlinable
    public func replaceEmpty(with output: Output) -> Result<Output, Failure>.Publisher {
        self
    }

    /// Retrying cannot change a fixed result.
    @inlinable
    public func retry(_ times: Int) -> Result<Output, Failure>.Publisher {
        self
    }

    /// `nextPartialResult` applied once, to `initialResult` and the value.
    @inlinable
    public func reduce<T>(
        _ initialResult: T, _ nextPartialResult: (T, Output) -> T
    ) -> Result<T, Failure>.Publisher {
        Result<T, Failure>.Publisher(result.map { nextPartialResult(initialResult, $0) })
    }

    /// `nextPartialResult` applied once, or the error it throws.
    @inlinable
    public func tryReduce<T>(
        _ initialResult: T, _ nextPartialResult: (T, Output) throws -> T
    ) -> Result<T, any Error>.Publisher {
        attempt { try nextPartialResult(initialResult, $0) }
    }

    /// `nextPartialResult` applied once, to `initialResult` and the value.
    @inlinable
    public func scan<T>(
        _ initialResult: T, _ nextPartialResult: (T, Output) -> T
    ) -> Result<T, Failure>.Publisher {
        Result<T, Failure>.Publisher(result.map { nextPartialResult(initialResult, $0) })
    }

    /// `nextPartialResult` applied once, or the error it throws.
    @inlinable
    public func tryScan<T>(
        _ initialResult: T, _ nextPartialResult: (T, Output) throws -> T
    ) -> Result<T, any Error>.Publisher {
        attempt { try nextPartialResult(initialResult, $0) }
    }

    /// A single value has no duplicates; `predicate` is not called.
    @inlinable
    public func removeDuplicates(by predicate: (Output, Output) -> Bool) -> Result<Output, Failure>.Publisher {
        self
    }

    /// The value, or the error `predicate` throws when comparing the value with itself.
    @inlinable
    public func tryRemoveDuplicates(
        by predicate: (Output, Output) throws -> Bool
    ) -> Result<Output, any Error>.Publisher {
        attempt { try SingleValue.comparedWithItself($0, by: predicate) }
    }
}
