extension Record.Recording where Output: Codable, Failure: Codable {
    /// Encodes the recording, exactly as `encode(to:)` does; Combine's older name for it.
    public func encode(into encoder: any Encoder) throws {
        try encode(to: encoder)
    }
}
