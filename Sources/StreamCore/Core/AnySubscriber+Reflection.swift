extension AnySubscriber: CustomReflectable, CustomPlaygroundDisplayConvertible {
    /// The wrapped subscriber's mirror (for a subject, its `SubjectSubscriber` wrapper's; for closures, the
    /// description's), as in Combine.
    public var customMirror: Mirror {
        Mirror(reflecting: reflected)
    }

    /// The description, as in Combine.
    public var playgroundDescription: Any {
        description
    }
}
