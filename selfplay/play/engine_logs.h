/* The folder external engines (uyi:..., engine:NAME) log into, made
 * before any game: the one asked for (--engine-logs) or the default
 * beside the database. */
#ifndef YINSH_ENGINE_LOGS_H
#define YINSH_ENGINE_LOGS_H

#include <stdbool.h>
#include <stddef.h>

/* With an external engine (`external`): the folder `asked`, made when
 * missing (its parent must exist, so that a mistyped path fails rather
 * than growing a tree) and written to, with *transcript set (a folder
 * asked for is a folder to read: the engines' conversations are written
 * beside their logs); else, when db is not NULL, engine-logs beside the
 * database, in buf (len bytes), made with its parent. *logs: the folder,
 * or `asked` (NULL when none is asked) without an external engine. 0, or
 * ERR_FAIL with err naming the folder. */
int engine_logs_prepare(const char *asked, const char *db, bool external, char *buf, size_t len, const char **logs,
                        bool *transcript, char *err);

#endif
