/* External engines (uyi:..., engine:NAME) before any game: the folder
 * they log into, made (the one asked for, --engine-logs, or the default
 * beside the database), and each engine started once to shake hands. */
#ifndef YINSH_ENGINE_LOGS_H
#define YINSH_ENGINE_LOGS_H

#include <stdbool.h>
#include <stddef.h>
#include "selfplay/play/controls.h"
#include "selfplay/agents/agent.h"

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

/* Starts each external engine among agents[0..n-1] once (however many
 * times it plays) under the controls' logs, answer time and transcript,
 * and checks its handshake: 0, or ERR_FAIL with why in err. */
int engine_logs_check_engines(const AgentSpec *const *agents, int n, const PlayControls *pc, char *err);

#endif
