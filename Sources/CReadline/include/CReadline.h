// GNU readline for shelf, as prefixed functions: Swift never sees readline's mutable globals.
#ifndef CREADLINE_H
#define CREADLINE_H

/// Called on Tab with the whole line and the cursor (byte offsets). The callee reports its
/// answer with shelf_rl_completion_set_start and shelf_rl_completion_add before returning.
typedef void (*shelf_rl_completer)(const char *line, int length, int cursor, void *context);

/// Initialises readline for shelf: the name `shelf` for inputrc conditionals, signal handling
/// in this shim (SIGINT sets a flag; SIGTERM and SIGHUP restore the terminal, then end the
/// process as usual), window-size tracking, and completion through `completer` with `context`.
void shelf_rl_initialize(shelf_rl_completer completer, void *context);

/// How shelf_rl_readline ended.
typedef enum shelf_rl_outcome {
    /// A line was entered; it is in *line (free it with shelf_rl_free).
    shelf_rl_line = 0,
    /// Ctrl-C: the half-typed line was discarded and `^C` and a newline were printed.
    shelf_rl_interrupt = 1,
    /// Ctrl-D on an empty line, or the end of input.
    shelf_rl_end = 2,
} shelf_rl_outcome;

/// Reads a line with `prompt` (invisible parts wrapped in \001 and \002).
shelf_rl_outcome shelf_rl_readline(const char *prompt, char **line);

/// Frees a line returned by shelf_rl_readline.
void shelf_rl_free(char *line);

/// 1 once SIGINT has arrived since the last shelf_rl_clear_interrupt(), or once SIGTERM or
/// SIGHUP has arrived at all.
int shelf_rl_interrupted(void);

/// Forgets a pending SIGINT (never a SIGTERM or SIGHUP: the shell is on its way out).
void shelf_rl_clear_interrupt(void);

/// The SIGTERM or SIGHUP that has arrived, or 0: the shell finishes stopping the command in
/// progress, then exits with 128 + this number.
int shelf_rl_terminating_signal(void);

/// Makes SIGINT, SIGTERM and SIGHUP set the flag shelf_rl_interrupted() reports instead of ending
/// the process, and end a blocked system call with EINTR (no SA_RESTART). shelf_rl_initialize
/// does this too.
void shelf_rl_catch_interrupt(void);

/// Adds a line to readline's in-memory history (Up, Down, Ctrl-R).
void shelf_rl_add_history(const char *line);

/// Reads the history file at `path` into readline's history. Returns 0 or an errno.
int shelf_rl_read_history(const char *path);

/// Appends the last `count` history entries to `path`. Returns 0 or an errno.
int shelf_rl_append_history(int count, const char *path);

/// Cuts the file at `path` to its last `lines` entries. Returns 0 or an errno.
int shelf_rl_truncate_history(const char *path, int lines);

/// Limits the in-memory history to `count` entries.
void shelf_rl_stifle_history(int count);

/// The number of entries in readline's history, and entry `index` (0-based) of it.
int shelf_rl_history_length(void);
const char *shelf_rl_history_entry(int index);

/// Sets where the current completion's replacement starts (a byte offset into the line).
void shelf_rl_completion_set_start(int start);

/// Adds a completion: `replacement` takes the place of the text from the start to the cursor;
/// `display` is what a list of choices shows. When `replacement` is the longest common prefix
/// of several choices, add it with `is_common_prefix` 1 before them.
void shelf_rl_completion_add(const char *replacement, const char *display, int is_common_prefix);

/// The terminal's width in columns from TIOCGWINSZ on `fd`, or 0 when unknown.
int shelf_rl_terminal_width(int fd);

#endif
