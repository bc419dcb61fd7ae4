extension PartialError {
    /// The problem's name, the last path component of its `type` URI (`resource-not-found`).
    ///
    /// The URIs say `https://api.twitter.com/2/problems/…` even when served by api.x.com, so match on this name.
    public var problemName: String? {
        guard let type, let slash = type.lastIndex(of: "/") else { return type }
        let name = type[type.index(after: slash)...]
        return name.isEmpty ? nil : String(name)
    }
}
