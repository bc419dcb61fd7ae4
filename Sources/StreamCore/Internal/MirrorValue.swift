/// A mirror child for an optional that is usually set: the value itself when present (so a mirror shows
/// `TrackingSubscriber…`, not `Optional(TrackingSubscriber…)`, as Combine's non-optional fields do), `nil` otherwise.
internal func mirrorValue<Value>(_ value: Value?) -> Any {
    if let value { return value }
    return value as Any
}
