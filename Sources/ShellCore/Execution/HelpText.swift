/// The help a command prints for `--help` and `help NAME`, built from its option table.
public enum HelpText {
    /// `Usage: NAME SYNOPSIS`, the summary, and one line per option.
    public static func render(_ type: any ShellCommand.Type) -> String {
        let usage = type.synopsis.isEmpty ? type.name : type.name + " " + type.synopsis
        var text = "Usage: \(usage)\n\(type.summary)\n"
        if !type.optionForms.isEmpty {
            text += "\nOptions:\n"
            let rows = type.optionForms.map { spec -> (String, String) in
                var forms: [String] = []
                if let short = spec.short { forms.append("-\(short)") }
                if let long = spec.long {
                    switch spec.value {
                    case .none: forms.append("--\(long)")
                    case .required: forms.append("--\(long)=\(spec.valueName)")
                    case .optional: forms.append("--\(long)[=\(spec.valueName)]")
                    }
                } else if spec.value == .required {
                    forms[forms.count - 1] += " \(spec.valueName)"
                }
                let joined = forms.joined(separator: ", ")
                return (spec.short == nil ? "    " + joined : joined, spec.help)
            }
            let width = min(28, rows.map(\.0.count).max() ?? 0)
            for (forms, help) in rows {
                let padding = String(repeating: " ", count: max(2, width - forms.count + 2))
                text += "  \(forms)\(padding)\(help)\n"
            }
        }
        return text
    }
}
