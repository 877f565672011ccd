/// shelf's version, written by `shelf --version`.
public enum ShelfVersion {
    /// The release number.
    public static let number = "0.9.0"
}
