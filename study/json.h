/* JSON as the viewer's pages embed it: string literals safe inside an
 * HTML <script> element. */
#ifndef YINSH_JSON_H
#define YINSH_JSON_H

#include <stdio.h>

/* s as a JSON string literal, quotes included. '<', '>' and '&' are
 * written as \u escapes, so that no text (a run name, an agent spec)
 * can end the <script> element it sits in. */
void json_string(FILE *f, const char *s);

#endif
