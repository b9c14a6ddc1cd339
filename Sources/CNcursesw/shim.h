// The ncursesw API as Swift sees it. Only Sources/CursesTerminal/CursesTerminal.swift imports
// this module.
//
// SwiftPM drops the -D flags pkg-config gives, so the wide-character API must be switched on
// here, before any include.
#ifndef CNCURSESW_SHIM_H
#define CNCURSESW_SHIM_H

#define _XOPEN_SOURCE_EXTENDED 1
#define NCURSES_WIDECHAR 1

#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <wchar.h>

#if __has_include(<ncursesw/curses.h>)
#include <ncursesw/curses.h>
#else
#include <curses.h>
#endif

// WINDOW may be opaque on some builds; Swift names the pointer through this.
typedef WINDOW *CNCWindowRef;

// Not visible to Swift through Glibc; curses itself measures characters with it, so the
// adapter asks it to keep curses' idea of widths and the buffer's in step.
extern int wcwidth(wchar_t);

// MARK: - Globals Swift 6 refuses to read directly (mutable C globals)

static inline CNCWindowRef cnc_stdscr(void) { return stdscr; }
static inline int cnc_lines(void) { return LINES; }
static inline int cnc_cols(void) { return COLS; }
static inline int cnc_colors(void) { return COLORS; }
static inline int cnc_color_pairs(void) { return COLOR_PAIRS; }
static inline FILE *cnc_stdout(void) { return stdout; }
static inline FILE *cnc_stdin(void) { return stdin; }

// MARK: - Macros Swift cannot import

static inline void cnc_getmaxyx(CNCWindowRef window, int *y, int *x) { getmaxyx(window, *y, *x); }
static inline const char *cnc_codeset(void) { return nl_langinfo(CODESET); }
static inline int cnc_ccharw_max(void) { return CCHARW_MAX; }

static inline attr_t cnc_a_normal(void) { return A_NORMAL; }
static inline attr_t cnc_a_bold(void) { return A_BOLD; }
static inline attr_t cnc_a_dim(void) { return A_DIM; }
static inline attr_t cnc_a_reverse(void) { return A_REVERSE; }
static inline attr_t cnc_a_underline(void) { return A_UNDERLINE; }

// MARK: - Key codes (returned by wget_wch with KEY_CODE_YES)

static inline int cnc_key_code_yes(void) { return KEY_CODE_YES; }
static inline int cnc_key_up(void) { return KEY_UP; }
static inline int cnc_key_down(void) { return KEY_DOWN; }
static inline int cnc_key_left(void) { return KEY_LEFT; }
static inline int cnc_key_right(void) { return KEY_RIGHT; }
static inline int cnc_key_ppage(void) { return KEY_PPAGE; }
static inline int cnc_key_npage(void) { return KEY_NPAGE; }
static inline int cnc_key_home(void) { return KEY_HOME; }
static inline int cnc_key_end(void) { return KEY_END; }
static inline int cnc_key_ic(void) { return KEY_IC; }
static inline int cnc_key_dc(void) { return KEY_DC; }
static inline int cnc_key_backspace(void) { return KEY_BACKSPACE; }
static inline int cnc_key_enter(void) { return KEY_ENTER; }
static inline int cnc_key_btab(void) { return KEY_BTAB; }
static inline int cnc_key_resize(void) { return KEY_RESIZE; }
static inline int cnc_key_f0(void) { return KEY_F0; }
static inline int cnc_key_f(int n) { return KEY_F(n); }

#endif
