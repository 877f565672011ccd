// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "shelf",
    products: [
        .library(name: "PathModel", targets: ["PathModel"]),
        .library(name: "PathModelFoundation", targets: ["PathModelFoundation"]),
        .library(name: "ShellCore", targets: ["ShellCore"]),
        .library(name: "ObjectStorage", targets: ["ObjectStorage"]),
        .executable(name: "shelf", targets: ["shelf"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-system", from: "1.4.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.27.0"),
    ],
    targets: [
        .target(name: "CPathModel"),
        .target(
            name: "PathModel",
            dependencies: ["CPathModel", .product(name: "SystemPackage", package: "swift-system")]
        ),
        .target(name: "PathModelFoundation", dependencies: ["PathModel"]),
        // posix_spawn's GNU extensions, for ShellCore's ProcessLauncher.swift alone.
        .target(name: "CProcessLauncher"),
        .target(name: "CRegex"),
        .target(
            name: "ShellCore",
            dependencies: [
                "PathModel", "CProcessLauncher", "CRegex", .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        // S3-compatible object storage: signing, key encoding, the HTTP client. Networking stays here,
        // out of PathModel and ShellCore.
        .target(
            name: "ObjectStorage",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                // Only to tell a failed TLS handshake from other transport failures.
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        // Object storage as a volume (`S3Volume`), on ObjectStorage's client and PathModel's
        // `Volume`; the shell reaches it only through the executable.
        .target(name: "ObjectVolume", dependencies: ["ObjectStorage", "PathModel"]),
        .target(name: "CReadline", linkerSettings: [.linkedLibrary("readline"), .linkedLibrary("tinfo")]),
        .executableTarget(
            name: "shelf",
            dependencies: [
                "ShellCore", "PathModel", "ObjectVolume", "CReadline",
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            // A release binary is linked by lld with the functions start-up runs placed first
            // (scripts/startup-order writes the list): they then fill a few dozen pages of text
            // instead of one page in each of hundreds of object files.
            linkerSettings: [
                .unsafeFlags(
                    [
                        "-use-ld=lld", "-Xlinker",
                        "--symbol-ordering-file=\(Context.packageDirectory)/scripts/startup-order.txt",
                        "-Xlinker", "--no-warn-symbol-ordering",
                    ], .when(configuration: .release))
            ]
        ),
        .executableTarget(name: "shelf-bench", dependencies: ["ShellCore", "PathModel"]),
        .testTarget(
            name: "PathModelTests",
            dependencies: ["PathModel", "PathModelFoundation", "ObjectVolume", "SeaweedFixture"]),
        .testTarget(name: "ObjectStorageTests", dependencies: ["ObjectStorage", "SeaweedFixture"]),
        // A real SeaweedFS started for the tests that need an S3 server.
        .target(
            name: "SeaweedFixture", dependencies: ["ObjectStorage", "ObjectVolume", "PathModel"],
            path: "Tests/SeaweedFixture"),
        .testTarget(
            name: "ObjectVolumeTests",
            dependencies: ["ObjectVolume", "ObjectStorage", "PathModel", "SeaweedFixture"]),
        .testTarget(
            name: "ShellCoreTests",
            dependencies: ["ShellCore", "PathModel", "ObjectVolume", "SeaweedFixture"],
            exclude: ["Transcripts"]),
        .target(name: "CPseudoTerminal", path: "Tests/CPseudoTerminal"),
        .testTarget(
            name: "shelfTests", dependencies: ["shelf", "ShellCore", "PathModel", "CPseudoTerminal", "SeaweedFixture"]),
    ],
    swiftLanguageModes: [.v6]
)

// `make fuzz` sets SHELF_FUZZ to add the libFuzzer target over the lexer, parser and expander;
// it needs `-sanitize=fuzzer`, so ordinary builds and `make test` leave it out.
if Context.environment["SHELF_FUZZ"] != nil {
    package.targets += [
        .target(name: "CShelfFuzz", path: "Fuzz/CShelfFuzz"),
        .executableTarget(
            name: "shelf-fuzz", dependencies: ["ShellCore", "PathModel", "CShelfFuzz"], path: "Fuzz/ShelfFuzz"),
    ]
}
