import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension ErrorText {
    /// What a failed file operation means, in words, from the POSIX error under it (Foundation wraps `ENOSPC` in
    /// `NSCocoaErrorDomain` 640, whose description would otherwise reach the user with its domain and user info);
    /// nil for errors that are not about files.
    static func fileProblem(_ error: any Error) -> String? {
        guard let code = posixCode(of: error) else {
            let error = error as NSError
            return error.domain == NSCocoaErrorDomain ? error.localizedDescription : nil
        }
        switch code {
        case ENOSPC: return "the disk is full"
        case EDQUOT: return "the disk quota is used up"
        case EROFS: return "the file system is read-only"
        case EACCES, EPERM: return "permission denied"
        case ENOENT: return "no such file or folder"
        case EISDIR: return "it is a folder"
        case EIO: return "an input/output error (the disk or the device failed)"
        case EFBIG: return "the file is larger than the file system allows"
        case EPIPE: return "the pipe was closed"
        default: return String(cString: strerror(code)).lowercased()
        }
    }

    private static func posixCode(of error: any Error) -> Int32? {
        if let error = error as? POSIXError { return error.code.rawValue }
        let error = error as NSError
        if error.domain == NSPOSIXErrorDomain { return Int32(error.code) }
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError { return posixCode(of: underlying) }
        return nil
    }
}
