#ifndef CLIBEDIT_SHIM_H
#define CLIBEDIT_SHIM_H

// Shims for the parts of libedit Swift cannot call directly: the variadic el_set/el_get/history_w, the stdio
// streams el_init wants, and signal handlers that must be plain C to be async-signal-safe.
//
// The signal state below lives in a function-local `static`. Every Swift file that calls these functions gets its own
// copy of it, so LineEditor calls the CLibEdit_interrupt_*, CLibEdit_resize_* and CLibEdit_guard_* functions from one
// Swift file only (TerminalSignals.swift).

#include <histedit.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>
#include <wchar.h>

// wcwidth is only declared under _XOPEN_SOURCE, which the Swift importer does not define; glibc always provides it.
extern int wcwidth(wchar_t c);

/// Terminal columns taken by `c` in the current locale; -1 for control characters.
static inline int CLibEdit_wcwidth(wchar_t c) {
    return wcwidth(c);
}

// MARK: - History

/// A wide history with a size limit that refuses consecutive duplicates.
static inline HistoryW *CLibEdit_history_init(int size) {
    HistoryW *history = history_winit();
    if (history == NULL) return NULL;
    HistEventW event;
    history_w(history, &event, H_SETSIZE, size);
    history_w(history, &event, H_SETUNIQUE, 1);
    return history;
}

static inline int CLibEdit_history_enter(HistoryW *history, const wchar_t *line) {
    HistEventW event;
    return history_w(history, &event, H_ENTER, line);
}

static inline int CLibEdit_history_clear(HistoryW *history) {
    HistEventW event;
    return history_w(history, &event, H_CLEAR);
}

/// Moves through the history: `operation` is H_FIRST, H_LAST, H_PREV or H_NEXT. Returns NULL past either end.
static inline const wchar_t *CLibEdit_history_step(HistoryW *history, int operation) {
    HistEventW event;
    if (history_w(history, &event, operation) == -1) return NULL;
    return event.str;
}

/// Loads a file in libedit's format; returns the number of entries read, or -1 (errno is set when the file could not
/// be opened; a file without libedit's header also returns -1).
static inline int CLibEdit_history_load(HistoryW *history, const char *path) {
    HistEventW event;
    return history_w(history, &event, H_LOAD, path);
}

/// Writes the whole history in libedit's format to `fd`, flushes and syncs it, and closes `fd` in every case.
/// Returns the number of entries written, or -1 with errno set.
static inline int CLibEdit_history_save_fd(HistoryW *history, int fd) {
    FILE *file = fdopen(fd, "w");
    if (file == NULL) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    HistEventW event;
    int written = history_w(history, &event, H_SAVE_FP, file);
    int saved = errno;
    if (written >= 0 && (fflush(file) != 0 || fsync(fd) != 0)) {
        saved = errno;
        written = -1;
    }
    if (fclose(file) != 0 && written >= 0) {
        saved = errno;
        written = -1;
    }
    errno = saved;
    return written;
}

// MARK: - Editor

/// el_init on the process's standard streams, which Swift 6 cannot reach from concurrency-safe code.
static inline EditLine *CLibEdit_el_init_stdio(const char *program) {
    return el_init(program, stdin, stdout, stderr);
}

typedef wchar_t *(*CLibEdit_prompt_fn)(EditLine *);
typedef unsigned char (*CLibEdit_command_fn)(EditLine *, int);

/// The prompt function, with `delimiter` marking the start and end of invisible (escape) sequences.
static inline int CLibEdit_el_set_prompt_esc(EditLine *el, CLibEdit_prompt_fn prompt, wchar_t delimiter) {
    return el_wset(el, EL_PROMPT_ESC, prompt, delimiter);
}

static inline int CLibEdit_el_set_editor(EditLine *el, const char *mode) {
    return el_set(el, EL_EDITOR, mode);
}

/// Changes one terminal mode used while editing (setty -d), for example "-isig".
static inline int CLibEdit_el_setty_edit(EditLine *el, const char *mode) {
    return el_set(el, EL_SETTY, "-d", mode, (const char *)NULL);
}

static inline int CLibEdit_el_set_signal(EditLine *el, int on) {
    return el_set(el, EL_SIGNAL, on);
}

static inline int CLibEdit_el_set_history(EditLine *el, HistoryW *history) {
    return el_wset(el, EL_HIST, history_w, history);
}

static inline int CLibEdit_el_set_clientdata(EditLine *el, void *data) {
    return el_set(el, EL_CLIENTDATA, data);
}

static inline void *CLibEdit_el_get_clientdata(EditLine *el) {
    void *data = NULL;
    if (el_get(el, EL_CLIENTDATA, &data) != 0) return NULL;
    return data;
}

static inline int CLibEdit_el_addfn(EditLine *el, const char *name, const char *help, CLibEdit_command_fn fn) {
    return el_set(el, EL_ADDFN, name, help, fn);
}

static inline int CLibEdit_el_bind(EditLine *el, const char *key, const char *command) {
    return el_set(el, EL_BIND, key, command, (const char *)NULL);
}

/// The terminal width libedit currently assumes (it tracks SIGWINCH), or 80.
static inline int CLibEdit_el_columns(EditLine *el) {
    int columns = 0;
    if (el_get(el, EL_GETTC, "co", &columns, (void *)NULL) != 0 || columns <= 0) return 80;
    return columns;
}

/// Writes through libedit's own output stream, so the text is ordered with what libedit has buffered.
static inline int CLibEdit_el_write(EditLine *el, const char *text) {
    FILE *out = NULL;
    if (el_get(el, EL_GETFP, 1, &out) != 0 || out == NULL) return -1;
    if (fputs(text, out) == EOF) return -1;
    return fflush(out);
}

/// The line being edited as offsets: the cursor and the length, in wide characters.
static inline const wchar_t *CLibEdit_el_line(EditLine *el, int *cursor, int *length) {
    const LineInfoW *info = el_wline(el);
    *cursor = (int)(info->cursor - info->buffer);
    *length = (int)(info->lastchar - info->buffer);
    return info->buffer;
}

// MARK: - Signal state

#define CLIBEDIT_GUARD_SIGNAL_COUNT 9
static const int CLibEdit_guard_signals[CLIBEDIT_GUARD_SIGNAL_COUNT] = {
    SIGHUP, SIGTERM, SIGQUIT, SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP
};

typedef struct {
    volatile sig_atomic_t interrupted;
    struct sigaction interrupt_previous;
    EditLine *volatile resize_editor;
    struct sigaction resize_previous;
    volatile sig_atomic_t guard_fd;
    struct termios guard_saved;
    struct sigaction guard_previous[CLIBEDIT_GUARD_SIGNAL_COUNT];
    int atexit_registered;
} CLibEdit_signal_state_t;

// A function-local static: the Swift importer emits it with the function, which it does not do for file-scope
// statics in a header.
static inline CLibEdit_signal_state_t *CLibEdit_signal_state(void) {
    static CLibEdit_signal_state_t state = { .guard_fd = -1 };
    return &state;
}

// MARK: - Interrupts

static void CLibEdit_interrupt_handler(int signo) {
    (void)signo;
    CLibEdit_signal_state()->interrupted = 1;
}

/// Installs a SIGINT handler that only records the signal. libedit's own handler (EL_SIGNAL) restores the terminal
/// and re-raises the signal to this one, which interrupts el_wgets instead of ending the process.
static inline int CLibEdit_interrupt_arm(void) {
    CLibEdit_signal_state_t *state = CLibEdit_signal_state();
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = CLibEdit_interrupt_handler;
    sigemptyset(&action.sa_mask);
    state->interrupted = 0;
    return sigaction(SIGINT, &action, &state->interrupt_previous);
}

static inline void CLibEdit_interrupt_disarm(void) {
    sigaction(SIGINT, &CLibEdit_signal_state()->interrupt_previous, NULL);
}

/// Whether SIGINT arrived since the last call; clears the record.
static inline int CLibEdit_interrupt_take(void) {
    CLibEdit_signal_state_t *state = CLibEdit_signal_state();
    int value = state->interrupted;
    state->interrupted = 0;
    return value;
}

// MARK: - Window resizes

static void CLibEdit_resize_handler(int signo) {
    (void)signo;
    EditLine *el = CLibEdit_signal_state()->resize_editor;
    if (el != NULL) el_resize(el);
}

/// Makes every SIGWINCH during an edit resize `el`. libedit's own handler removes itself after a signal that arrives
/// outside its read() and only reinstalls itself on EINTR, so a second resize in one line would otherwise be missed.
/// SA_RESTART keeps this handler from interrupting libedit's read.
static inline int CLibEdit_resize_arm(EditLine *el) {
    CLibEdit_signal_state_t *state = CLibEdit_signal_state();
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = CLibEdit_resize_handler;
    action.sa_flags = SA_RESTART;
    sigemptyset(&action.sa_mask);
    state->resize_editor = el;
    return sigaction(SIGWINCH, &action, &state->resize_previous);
}

static inline void CLibEdit_resize_disarm(void) {
    CLibEdit_signal_state_t *state = CLibEdit_signal_state();
    sigaction(SIGWINCH, &state->resize_previous, NULL);
    state->resize_editor = NULL;
}

// MARK: - Terminal guard

static void CLibEdit_guard_restore(void) {
    CLibEdit_signal_state_t *state = CLibEdit_signal_state();
    int fd = state->guard_fd;
    if (fd >= 0) tcsetattr(fd, TCSANOW, &state->guard_saved);
}

static void CLibEdit_guard_handler(int signo) {
    CLibEdit_signal_state_t *state = CLibEdit_signal_state();
    CLibEdit_guard_restore();
    state->guard_fd = -1;
    for (int i = 0; i < CLIBEDIT_GUARD_SIGNAL_COUNT; i++) {
        if (CLibEdit_guard_signals[i] == signo) sigaction(signo, &state->guard_previous[i], NULL);
    }
    // Delivered once this handler returns, to whatever handled the signal before (usually the default action).
    raise(signo);
}

/// Remembers the terminal settings of `fd` and restores them if the process exits or dies from a fatal signal before
/// CLibEdit_guard_end. Returns -1 when `fd` is not a terminal.
static inline int CLibEdit_guard_begin(int fd) {
    CLibEdit_signal_state_t *state = CLibEdit_signal_state();
    if (tcgetattr(fd, &state->guard_saved) != 0) return -1;
    if (!state->atexit_registered) {
        state->atexit_registered = 1;
        atexit(CLibEdit_guard_restore);
    }
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = CLibEdit_guard_handler;
    sigemptyset(&action.sa_mask);
    for (int i = 0; i < CLIBEDIT_GUARD_SIGNAL_COUNT; i++) {
        sigaction(CLibEdit_guard_signals[i], &action, &state->guard_previous[i]);
    }
    state->guard_fd = fd;
    return 0;
}

/// Restores the saved terminal settings and the signal handlers that were there before CLibEdit_guard_begin.
static inline void CLibEdit_guard_end(void) {
    CLibEdit_signal_state_t *state = CLibEdit_signal_state();
    if (state->guard_fd < 0) return;
    CLibEdit_guard_restore();
    state->guard_fd = -1;
    for (int i = 0; i < CLIBEDIT_GUARD_SIGNAL_COUNT; i++) {
        sigaction(CLibEdit_guard_signals[i], &state->guard_previous[i], NULL);
    }
}

#endif
