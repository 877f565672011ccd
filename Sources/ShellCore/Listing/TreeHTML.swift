import PathModel

/// The pieces of `tree -H`'s HTML page, as tree(1) 2.1 writes them: the head and its style
/// sheet, names as text and as links, the report and the end. The page names shelf as what
/// made it, where tree(1) names itself.
enum TreeHTML {
    /// The head of the page up to the first line of the tree: the character set `charset`
    /// (`iso-8859-1` when none is named) and the page's `title`, also as its heading.
    static func intro(charset: [UInt8]?, title: [UInt8]) -> [UInt8] {
        var page = Array(
            """
            <!DOCTYPE html>
            <html>
            <head>
             <meta http-equiv="Content-Type" content="text/html; charset=
            """.utf8)
        page += charset ?? Array("iso-8859-1".utf8)
        page += Array(
            """
            ">
             <meta name="Author" content="Made by 'tree'">
             <meta name="GENERATOR" content="\(generator)">
             <title>
            """.utf8)
        page += title
        page += Array(
            """
            </title>
             <style type="text/css">
              BODY { font-family : monospace, sans-serif;  color: black;}
              P { font-family : monospace, sans-serif; color: black; margin:0px; padding: 0px;}
              A:visited { text-decoration : none; margin : 0px; padding : 0px;}
              A:link    { text-decoration : none; margin : 0px; padding : 0px;}
              A:hover   { text-decoration: underline; background-color : yellow; margin : 0px; padding : 0px;}
              A:active  { margin : 0px; padding : 0px;}
              .VERSION { font-size: small; font-family : arial, sans-serif; }
              .NORM  { color: black;  }
              .FIFO  { color: purple; }
              .CHAR  { color: yellow; }
              .DIR   { color: blue;   }
              .BLOCK { color: yellow; }
              .LINK  { color: aqua;   }
              .SOCK  { color: fuchsia;}
              .EXEC  { color: green;  }
             </style>
            </head>
            <body>
            \t<h1>
            """.utf8)
        page += title
        page += Array("</h1><p>\n".utf8)
        return page
    }

    /// The end of the page: the line with what made it, and the closing tags.
    static let outro = Array(
        """
        \t<hr>
        \t<p class="VERSION">
        \t\t \(generator)
        \t</p>
        </body>
        </html>

        """.utf8)

    /// What made the page.
    private static let generator = "shelf \(ShelfVersion.number)"

    /// The report, `counts` (`3 directories, 7 files` and what `--du` puts before it), in its
    /// paragraph.
    static func report(_ counts: String) -> [UInt8] {
        Array("<br><br><p>\n\n\(counts)\n\n</p>\n".utf8)
    }

    /// The end of each line.
    static let lineEnd = Array("<br>\n".utf8)
    /// The indentation below a last entry, three no-break spaces and a space.
    static let blank = Array("&nbsp;&nbsp;&nbsp; ".utf8)
    /// A space in the bracketed fields.
    static let space = Array("&nbsp;".utf8)

    /// The class `-C` gives a name, by what `info` (what a symlink leads to, nil when it leads
    /// nowhere) says: `DIR`, `EXEC` (any execute bit, a symlink's own too), `FIFO`, `SOCK` or `NORM`.
    static func className(_ info: FileInfo?) -> String {
        guard let info else { return "NORM" }
        if info.kind == .directory { return "DIR" }
        if info.mode & 0o111 != 0 { return "EXEC" }
        if info.kind == .fifo { return "FIFO" }
        if info.kind == .socket { return "SOCK" }
        return "NORM"
    }

    /// Appends `bytes` as part of a link, as tree(1) writes it: `&` as `&amp;`, the bytes
    /// `` "#%<>[]^\?+`` and space, control bytes and bytes above 0x7E as `%XX`, the rest as
    /// they are.
    static func appendURL(_ bytes: some Collection<UInt8>, to line: inout [UInt8]) {
        for byte in bytes {
            if byte == 0x26 {
                line += Array("&amp;".utf8)
            } else if byte < 0x20 || byte > 0x7E || escapedInURL.contains(byte) {
                line += [0x25, hexDigit(byte >> 4), hexDigit(byte & 0xF)]
            } else {
                line.append(byte)
            }
        }
    }

    /// The printable bytes a link escapes.
    private static let escapedInURL = Set(" \"#%<>[]^\\?+".utf8)

    /// An upper-case hexadecimal digit.
    private static func hexDigit(_ value: UInt8) -> UInt8 { value < 10 ? 0x30 + value : 0x41 + value - 10 }
}
