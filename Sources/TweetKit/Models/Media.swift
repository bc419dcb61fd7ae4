/// A photo, video or GIF attached to a tweet.
public struct Media: Hashable, Sendable {
    /// What kind of media this is; the API's `type`.
    public enum Kind: String, Hashable, Sendable {
        /// A still image.
        case photo
        /// A video.
        case video
        /// An animated GIF (delivered as video).
        case animatedGIF = "animated_gif"
    }
    /// The key tweets use to refer to it (`attachments.media_keys`).
    public var mediaKey: String
    /// Photo, video or GIF.
    public var kind: Kind
    /// The image URL (photos only).
    public var url: String?
    /// A still preview (videos and GIFs).
    public var previewImageURL: String?
    /// Pixel width.
    public var width: Int?
    /// Pixel height.
    public var height: Int?
    /// The alt text the author wrote.
    public var altText: String?

    /// Creates a media item.
    public init(
        mediaKey: String, kind: Kind, url: String? = nil, previewImageURL: String? = nil, width: Int? = nil,
        height: Int? = nil, altText: String? = nil
    ) {
        self.mediaKey = mediaKey
        self.kind = kind
        self.url = url
        self.previewImageURL = previewImageURL
        self.width = width
        self.height = height
        self.altText = altText
    }
}
