/// A type that defines methods for encoding a value into a top-level output, such as JSON data.
///
/// StreamFoundation conforms Foundation's JSONEncoder to it, so `encode(encoder:)` works with it.
public protocol TopLevelEncoder<Output> {
    /// The type this encoder produces.
    associatedtype Output
    /// Encodes an instance of the indicated type.
    func encode<T: Encodable>(_ value: T) throws -> Output
}

/// A type that defines methods for decoding a top-level input, such as JSON data, into a value.
///
/// StreamFoundation conforms Foundation's JSONDecoder to it, so `decode(type:decoder:)` works with it.
public protocol TopLevelDecoder<Input> {
    /// The type this decoder accepts.
    associatedtype Input
    /// Decodes an instance of the indicated type.
    func decode<T: Decodable>(_ type: T.Type, from: Input) throws -> T
}
