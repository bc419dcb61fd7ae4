extension AnyPublisher: CustomPlaygroundDisplayConvertible {
    /// The description ("AnyPublisher"), as in Combine.
    public var playgroundDescription: Any {
        description
    }
}
