extension Publisher {
    /// Replaces nil elements in the stream with the provided element.
    ///
    /// As in Combine this is a `Publishers.Map`, so it costs one closure call per element and adds no subscription.
    public func replaceNil<T>(with output: T) -> Publishers.Map<Self, T> where Output == T? {
        Publishers.Map(upstream: self) { $0 ?? output }
    }
}
