/* A command line as text a shell runs back: the words joined by spaces,
 * each quoted where the shell needs it. */
#ifndef YINSH_SHELL_WORDS_H
#define YINSH_SHELL_WORDS_H

/* `first` (unquoted: a program's name) and the words joined by spaces
 * (malloc'd; NULL when out of memory): a word of plain characters as it
 * is, one with a control character in bash's $'...' (the line stays one
 * line), any other in single quotes ('\'' for a quote inside). The
 * command line stored with runs and reports, runnable when pasted. */
char *shell_join(const char *first, int argc, char **argv);

#endif
