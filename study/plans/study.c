#define _GNU_SOURCE /* asprintf */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "engine/base/error.h"
#include "engine/base/file.h"
#include "study/plans/ini.h"
#include "engine/notation.h"
#include "engine/base/number.h"
#include "engine/base/rng.h"
#include "study/plans/study.h"

/* The report's folder when [report] has no out: one of the study's own
 * (results/NAME), so that a study copied from another and renamed does
 * not write over the other's report. */
#define STUDY_DEFAULT_OUT "results/%s"

/* The keys each section may hold; anything else is a typo to report. */
static const char *const STUDY_KEYS[] = {"name", "db", "seed", "games", "variants", "opening", "visits", NULL};
static const char *const AGENT_KEYS[] = {"spec", "games", "opening", NULL};
static const char *const REPORT_KEYS[] = {"out", "plots", "compare", "reference", "margin", NULL};
static const char *const LADDER_KEYS[] = {"levels", "games", "opening", NULL};

typedef struct Ctx {
    const char *file;
    char *err;
} Ctx;

static int bad(const Ctx *c, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int bad(const Ctx *c, int line, const char *fmt, ...)
{
    char msg[ERR_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return error_code(c->err, ERR_USAGE, "%s:%d: %s", c->file, line, msg);
}

static int check_keys(const Ctx *c, const IniSection *s, const char *const *allowed)
{
    for (int i = 0; i < s->nkeys; i++) {
        bool known = false;
        for (int k = 0; allowed[k] && !known; k++) known = !strcmp(allowed[k], s->keys[i].key);
        if (known) continue;
        char list[256] = "";
        for (int k = 0; allowed[k]; k++)
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", k ? ", " : "", allowed[k]);
        return bad(c, s->keys[i].line, "unknown key '%.60s' in [%s] (it takes %s)", s->keys[i].key, s->name, list);
    }
    return ERR_OK;
}

static int nonempty(const Ctx *c, const IniKey *k)
{
    return k->value[0] ? ERR_OK : bad(c, k->line, "'%s' wants a value", k->key);
}

static int take_games(const Ctx *c, const IniKey *k, long *games)
{
    if (number_long(k->value, 1, STORE_MAX_GAMES, games)) return ERR_OK;
    return bad(c, k->line, "games wants a number from 1 to %d, not '%.60s'", STORE_MAX_GAMES, k->value);
}

/* An opening (none, rings, random:K or pie:K): how every game of a run starts. */
typedef struct Opening {
    int kind, actions;
} Opening;

static int take_opening(const Ctx *c, const IniKey *k, Opening *o)
{
    if (opening_parse(k->value, &o->kind, &o->actions)) return ERR_OK;
    return bad(c, k->line, "opening wants none, rings, random:K or pie:K (K from 1 to %d), not '%.60s'", OPENING_RANDOM_MAX,
               k->value);
}

/* The folder a file would go in must exist: the study checks it before it
 * plays, instead of failing after the first runs. */
static int check_folder_of(const Ctx *c, int line, const char *what, const char *path)
{
    char *copy = strdup(path);
    if (!copy) return bad(c, line, "out of memory");
    char *slash = strrchr(copy, '/');
    int rc = ERR_OK;
    if (slash) {
        if (slash == copy) slash[1] = '\0';
        else *slash = '\0';
        struct stat sb;
        if (stat(copy, &sb) != 0 || !S_ISDIR(sb.st_mode))
            rc = bad(c, line, "%s '%.200s': the folder '%.200s' does not exist", what, path, copy);
    }
    free(copy);
    return rc;
}

static int load_study_section(const Ctx *c, const IniSection *sec, Study *s, long *games, Opening *opening,
                              int variants[VARIANT_NB], int *nvariants)
{
    int rc = check_keys(c, sec, STUDY_KEYS);
    if (rc) return rc;
    if (sec->label[0]) return bad(c, sec->line, "[study] takes no label");
    const IniKey *k;

    if (!(k = ini_key(sec, "name"))) return bad(c, sec->line, "[study] needs a name (the runs' names begin with it)");
    if (!planned_word(k->value, STUDY_LABEL_LEN))
        return bad(c, k->line, "name '%.60s': 1 to %d " PLANNED_WORD, k->value, STUDY_LABEL_LEN - 1);
    if (!(s->name = strdup(k->value))) return bad(c, k->line, "out of memory");

    if (!(k = ini_key(sec, "seed"))) return bad(c, sec->line, "[study] needs a seed (run k's seed is seed + k)");
    if (!number_u64(k->value, &s->seed))
        return bad(c, k->line, "seed wants an unsigned 64-bit number, not '%.60s'", k->value);

    if ((k = ini_key(sec, "games")) && (rc = take_games(c, k, games))) return rc;
    if ((k = ini_key(sec, "opening")) && (rc = take_opening(c, k, opening))) return rc;
    if ((k = ini_key(sec, "visits"))) {
        const char *v = k->value;
        if (!strcmp(v, "yes") || !strcmp(v, "on") || !strcmp(v, "true")) s->visits = true;
        else if (!strcmp(v, "no") || !strcmp(v, "off") || !strcmp(v, "false")) s->visits = false;
        else return bad(c, k->line, "visits wants yes or no, not '%.60s'", v);
    }

    if (!(k = ini_key(sec, "variants"))) return bad(c, sec->line, "[study] needs variants (standard, blitz or both)");
    *nvariants = 0;
    for (const char *p = k->value; *p;) {
        size_t len = strcspn(p, ", \t");
        if (len) {
            char word[32];
            int v;
            snprintf(word, sizeof word, "%.*s", (int)(len < 31 ? len : 31), p);
            if (len >= sizeof word || !variant_parse(word, &v))
                return bad(c, k->line, "unknown variant '%.*s' (" VARIANT_EXPECTED ")", (int)(len < 60 ? len : 60), p);
            for (int i = 0; i < *nvariants; i++)
                if (variants[i] == v) return bad(c, k->line, "variant '%s' is listed twice", word);
            variants[(*nvariants)++] = v;
        }
        p += len;
        p += strspn(p, ", \t");
    }
    if (*nvariants == 0) return bad(c, k->line, "variants wants standard, blitz or both (or their options, docs/rules.md §9.3)");

    if (!(k = ini_key(sec, "db"))) return ERR_OK;
    if ((rc = nonempty(c, k))) return rc;
    if (!(s->db = strdup(k->value))) return bad(c, k->line, "out of memory");
    return check_folder_of(c, k->line, "db", s->db);
}

static int load_report_section(const Ctx *c, const IniSection *sec, Study *s)
{
    int rc = check_keys(c, sec, REPORT_KEYS);
    if (rc) return rc;
    if (sec->label[0]) return bad(c, sec->line, "[report] takes no label");
    const IniKey *k = ini_key(sec, "out");
    if (k) {
        if ((rc = nonempty(c, k))) return rc;
        struct stat sb;
        if (stat(k->value, &sb) == 0 && !S_ISDIR(sb.st_mode))
            return bad(c, k->line, "out '%.200s' is a file, not a folder", k->value);
        free(s->report_out);
        if (!(s->report_out = strdup(k->value))) return bad(c, k->line, "out of memory");
    }
    if ((k = ini_key(sec, "plots"))) {
        const char *v = k->value;
        if (!strcmp(v, "yes") || !strcmp(v, "on") || !strcmp(v, "true")) s->plots = true;
        else if (!strcmp(v, "no") || !strcmp(v, "off") || !strcmp(v, "false")) s->plots = false;
        else return bad(c, k->line, "plots wants yes or no, not '%.60s'", v);
    }
    /* what it names is checked by the report's reader (report_reference_check), before any game */
    if ((k = ini_key(sec, "reference"))) {
        if ((rc = nonempty(c, k))) return rc;
        free(s->reference);
        if (!(s->reference = strdup(k->value))) return bad(c, k->line, "out of memory");
        s->reference_line = k->line;
    }
    /* the equivalence margin in points of White's score (report_equivalence) */
    if ((k = ini_key(sec, "margin"))) {
        if (!number_real(k->value, 0.001, 49.999, &s->margin))
            return bad(c, k->line, "margin wants points of White's score above 0 and below 50 (2: within 48-52%%), "
                       "not '%.60s'", k->value);
    }
    return ERR_OK;
}

/* The sections: one [study], [agent LABEL] ones, at most one [report]
 * (read here). */
static int find_sections(const Ctx *c, const Ini *ini, Study *s, const IniSection **study,
                         const IniSection **agents, int *nagents, const IniSection **ladder,
                         const IniSection **report)
{
    int rc;
    *study = *ladder = *report = NULL;
    *nagents = 0;
    for (int i = 0; i < ini->nsections; i++) {
        const IniSection *sec = &ini->sections[i];
        if (!strcmp(sec->name, "study") || !strcmp(sec->name, "report") || !strcmp(sec->name, "ladder")) {
            for (int j = 0; j < i; j++)
                if (!strcmp(ini->sections[j].name, sec->name))
                    return bad(c, sec->line, "[%s] is there already (line %d)", sec->name, ini->sections[j].line);
            if (!strcmp(sec->name, "study")) *study = sec;
            else if (!strcmp(sec->name, "ladder")) *ladder = sec;
            else if ((rc = load_report_section(c, sec, s))) return rc;
            else *report = sec;
        } else if (!strcmp(sec->name, "agent")) {
            if (*nagents == STUDY_MAX_AGENTS) return bad(c, sec->line, "a study has at most %d agents", STUDY_MAX_AGENTS);
            agents[(*nagents)++] = sec;
        } else {
            return bad(c, sec->line,
                       "unknown section [%.60s] (a study has [study], [agent LABEL], [ladder] and [report])",
                       sec->name);
        }
    }
    if (!*study) return bad(c, 1, "no [study] section (it names the study, its seed, variants and database)");
    return ERR_OK;
}

/* Agent a's section and its runs, one per variant: run k = a * nvariants
 * + v, with seed + k. */
static int load_agent(const Ctx *c, const IniSection *sec, Study *s, int a, long games, const Opening *opening,
                      const int *variants, int nvariants)
{
    int rc;
    if ((rc = check_keys(c, sec, AGENT_KEYS))) return rc;
    if (!planned_word(sec->label, STUDY_LABEL_LEN))
        return bad(c, sec->line, "an agent section is [agent LABEL], LABEL 1 to %d " PLANNED_WORD
                   " (it ends the runs' names)", STUDY_LABEL_LEN - 1);
    const IniKey *spec = ini_key(sec, "spec"), *k;
    if (!spec) return bad(c, sec->line, "[agent %s] needs a spec (random, mcts:sims=N, ...)", sec->label);
    if ((rc = nonempty(c, spec))) return rc;
    if (strlen(spec->value) >= SPEC_LEN) return bad(c, spec->line, "a spec is at most %d characters", SPEC_LEN - 1);
    AgentSpec agent;
    char perr[ERR_LEN];
    if (agent_spec_parse(spec->value, &agent, perr)) return bad(c, spec->line, "agent '%s': %s", sec->label, perr);
    Opening own = *opening;
    if ((k = ini_key(sec, "games")) && (rc = take_games(c, k, &games))) goto done;
    if (!games) {
        rc = bad(c, sec->line, "[agent %s] has no games: set games here or in [study]", sec->label);
        goto done;
    }
    if ((k = ini_key(sec, "opening")) && (rc = take_opening(c, k, &own))) goto done;
    for (int v = 0; v < nvariants; v++) {
        int idx = a * nvariants + v;
        StudyRun *r = &s->runs[idx];
        int len = snprintf(r->name, sizeof r->name, "%s-%s-%s", s->name, variant_name(variants[v]), sec->label);
        if (len >= (int)sizeof r->name) {
            rc = bad(c, sec->line, "the run name '%s-%s-%s' is longer than %d characters", s->name,
                     variant_name(variants[v]), sec->label, STORE_NAME_LEN - 1);
            goto done;
        }
        r->kind = "selfplay";
        snprintf(r->label, sizeof r->label, "%s", sec->label);
        snprintf(r->spec, sizeof r->spec, "%s", spec->value);
        r->line = spec->line;
        r->plan = (SelfplayPlan){.variant = variants[v], .seed = s->seed + (uint64_t)idx, .games = (uint32_t)games,
                                 .opening = own.kind, .opening_actions = own.actions};
        /* each plan holds its own references to a net (study_free gives them back) */
        agent_spec_copy(&r->plan.white, &agent);
        agent_spec_copy(&r->plan.black, &agent);
    }
    rc = ERR_OK;
done:
    agent_spec_release(&agent);
    return rc;
}

/* The [ladder] section: its levels (agent labels, weakest first, each an
 * agent of the file, each once; at least two), and after the self-play
 * runs, for each variant and each level above the first, the match of
 * that level (A) against the one below (B). The levels' self-play runs
 * (s->runs) give the agents' specs and parsed plans. */
static int load_ladder(const Ctx *c, const IniSection *sec, Study *s, const Opening *opening, const int *variants,
                       int nvariants, int nagents)
{
    int rc;
    if ((rc = check_keys(c, sec, LADDER_KEYS))) return rc;
    if (sec->label[0]) return bad(c, sec->line, "[ladder] takes no label");
    const IniKey *levels = ini_key(sec, "levels"), *k;
    if (!levels) return bad(c, sec->line, "[ladder] needs levels (agent labels, weakest first)");
    long games = 0;
    if (!(k = ini_key(sec, "games"))) return bad(c, sec->line, "[ladder] needs games (per match, an even number)");
    if ((rc = take_games(c, k, &games))) return rc;
    if (games % 2) return bad(c, k->line, "games wants an even number (pairs of games), not %ld", games);
    Opening own = *opening;
    if ((k = ini_key(sec, "opening")) && (rc = take_opening(c, k, &own))) return rc;
    int level[STUDY_MAX_AGENTS], nlevels = 0;
    for (const char *p = levels->value; *p;) {
        size_t len = strcspn(p, ", \t");
        if (len) {
            int a = -1;
            for (int i = 0; i < nagents; i++)
                if (strlen(s->runs[i * nvariants].label) == len && !strncmp(s->runs[i * nvariants].label, p, len))
                    a = i;
            if (a < 0) return bad(c, levels->line, "level '%.*s' is no agent of the study", (int)(len < 60 ? len : 60), p);
            for (int i = 0; i < nlevels; i++)
                if (level[i] == a) return bad(c, levels->line, "level '%.*s' is listed twice", (int)(len < 60 ? len : 60), p);
            level[nlevels++] = a;
        }
        p += len;
        p += strspn(p, ", \t");
    }
    if (nlevels < 2) return bad(c, levels->line, "a ladder has at least two levels");
    for (int v = 0; v < nvariants; v++)
        for (int i = 1; i < nlevels; i++) {
            const StudyRun *a = &s->runs[level[i] * nvariants + v], *b = &s->runs[level[i - 1] * nvariants + v];
            StudyRun *r = &s->runs[s->nruns + s->nladder++];
            int len = snprintf(r->name, sizeof r->name, "%s-%s-%s-vs-%s", s->name, variant_name(variants[v]), a->label,
                               b->label);
            if (len >= (int)sizeof r->name)
                return bad(c, levels->line, "the run name '%s-%s-%s-vs-%s' is longer than %d characters", s->name,
                           variant_name(variants[v]), a->label, b->label, STORE_NAME_LEN - 1);
            r->kind = "match";
            memcpy(r->label, a->label, sizeof r->label); /* runs of one array: gcc cannot tell r from a */
            memcpy(r->spec, a->spec, sizeof r->spec);
            snprintf(r->spec_b, sizeof r->spec_b, "%s", b->spec);
            r->line = levels->line;
            r->plan = (SelfplayPlan){.variant = variants[v], .seed = rng_mix(s->seed, rng_hash_text(r->name)),
                                     .games = (uint32_t)games, .pairs = true, .opening = own.kind,
                                     .opening_actions = own.actions};
            agent_spec_copy(&r->plan.white, &a->plan.white);
            agent_spec_copy(&r->plan.black, &b->plan.white);
        }
    return ERR_OK;
}

/* [report] compare: comparisons declared before the games, "A vs B" with
 * A and B agent labels, separated by commas; each becomes the specs and
 * openings of the two agents' self-play (of the first variant's run: the
 * others have the same). */
static int load_compare(const Ctx *c, const IniKey *k, Study *s, int nagents, int nvariants)
{
    int rc;
    if ((rc = nonempty(c, k))) return rc;
    const char *p = k->value;
    size_t end = strlen(p);
    while (end && (p[end - 1] == ' ' || p[end - 1] == '\t')) end--;
    if (end && p[end - 1] == ',')
        return bad(c, k->line, "compare wants 'LABEL vs LABEL' after its last comma, not nothing");
    while (*p) {
        size_t len = strcspn(p, ",");
        char item[256], label[2][STUDY_LABEL_LEN];
        if (len >= sizeof item) return bad(c, k->line, "compare: '%.60s...' is too long", p);
        memcpy(item, p, len);
        item[len] = '\0';
        p += len + (p[len] == ',');
        int n = 0, pos = 0;
        char vs[8] = "", extra[2] = "";
        n = sscanf(item, " %47[^ \t] %7s %47[^ \t] %1s%n", label[0], vs, label[1], extra, &pos);
        if (n != 3 || strcmp(vs, "vs"))
            return bad(c, k->line, "compare wants 'LABEL vs LABEL' (agents of the study), separated by commas, not "
                       "'%.100s'", item);
        if (s->ncompare == STUDY_MAX_COMPARE)
            return bad(c, k->line, "compare holds at most %d comparisons", STUDY_MAX_COMPARE);
        StudyCompare *cmp = &s->compare[s->ncompare];
        for (int side = 0; side < 2; side++) {
            int a = -1;
            for (int i = 0; i < nagents; i++)
                if (!strcmp(s->runs[i * nvariants].label, label[side])) a = i;
            if (a < 0) return bad(c, k->line, "compare: '%.60s' is no agent of the study", label[side]);
            const StudyRun *r = &s->runs[a * nvariants];
            snprintf(cmp->label[side], sizeof cmp->label[side], "%s", label[side]);
            agent_spec_format(&r->plan.white, cmp->spec[side]);
            opening_format(r->plan.opening, r->plan.opening_actions, cmp->opening[side], sizeof cmp->opening[side]);
        }
        if (!strcmp(cmp->spec[0], cmp->spec[1]) && !strcmp(cmp->opening[0], cmp->opening[1]))
            return bad(c, k->line, "compare: '%s' and '%s' are the same agent from the same opening: the same games",
                       label[0], label[1]);
        s->ncompare++;
    }
    if (!s->ncompare) return bad(c, k->line, "compare wants 'LABEL vs LABEL', separated by commas");
    return ERR_OK;
}

int study_load(Study *s, const char *path, char *err)
{
    *s = (Study){.plots = true};
    Ini ini;
    Ctx c = {.file = path, .err = err};
    int rc = ini_read(&ini, path, err);
    if (rc) goto done;
    if (!(s->path = strdup(path))) {
        rc = bad(&c, 0, "out of memory");
        goto done;
    }
    const IniSection *study, *agents[STUDY_MAX_AGENTS], *ladder;
    int nagents;
    const IniSection *report;
    if ((rc = find_sections(&c, &ini, s, &study, agents, &nagents, &ladder, &report))) goto done;
    long games = 0;
    Opening opening = {.kind = OPENING_NONE};
    int variants[VARIANT_NB], nvariants = 0;
    if ((rc = load_study_section(&c, study, s, &games, &opening, variants, &nvariants))) goto done;
    if (!s->report_out && asprintf(&s->report_out, STUDY_DEFAULT_OUT, s->name) < 0) {
        s->report_out = NULL;
        rc = bad(&c, study->line, "out of memory");
        goto done;
    }
    if (nagents == 0) {
        rc = bad(&c, study->line, "no [agent LABEL] section: a study plays at least one agent");
        goto done;
    }

    /* Every agent, then the runs: agents in file order, variants in the
     * order listed, run k with seed + k; then the ladder's matches (at
     * most one below each agent in each variant). */
    if (!(s->runs = calloc((size_t)(2 * nagents * nvariants), sizeof *s->runs))) {
        rc = bad(&c, study->line, "out of memory");
        goto done;
    }
    s->cap = 2 * nagents * nvariants;
    for (int a = 0; a < nagents && !rc; a++)
        rc = load_agent(&c, agents[a], s, a, games, &opening, variants, nvariants);
    if (!rc) s->nruns = nagents * nvariants;
    if (!rc && ladder) rc = load_ladder(&c, ladder, s, &opening, variants, nvariants, nagents);
    if (!rc) s->nruns += s->nladder;
    const IniKey *compare = report ? ini_key(report, "compare") : NULL;
    if (!rc && compare) rc = load_compare(&c, compare, s, nagents, nvariants);
    for (int i = 0; !rc && i < s->nruns; i++) s->runs[i].plan.store_visits = s->visits;
done:
    ini_free(&ini);
    return rc;
}

void study_free(Study *s)
{
    free(s->path);
    free(s->name);
    free(s->db);
    free(s->report_out);
    free(s->reference);
    for (int i = 0; i < s->cap; i++) run_plan_release(&s->runs[i].plan); /* zeroed past those filled */
    free(s->runs);
    *s = (Study){0};
}

int study_state(const Study *s, const PlannedOptions *o, Planned *runs, char *err)
{
    for (int i = 0; i < s->nruns; i++)
        runs[i] = (Planned){.kind = s->runs[i].kind, .name = s->runs[i].name, .plan = s->runs[i].plan};
    int refused, rc = planned_read(o, runs, s->nruns, &refused, err);
    if (rc == ERR_EXISTS) {
        char msg[ERR_LEN];
        snprintf(msg, sizeof msg, "%s", err);
        rc = error_code(err, rc,
                        "%s:%d: %s; the study asks for another run under that name: restore the file as it was, or "
                        "rename the study, or use another database",
                        s->path, s->runs[refused].line, msg);
    } else if (rc) {
        char msg[ERR_LEN];
        snprintf(msg, sizeof msg, "%s", err);
        rc = error_code(err, rc, "%s: %s", s->path, msg);
    }
    return rc;
}

#define STUDY_MARK ".study"

int study_report_owner_check(const Study *s, char *err)
{
    char path[4096], had[256] = "";
    if (snprintf(path, sizeof path, "%s/" STUDY_MARK, s->report_out) >= (int)sizeof path) return 0;
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    size_t n = fread(had, 1, sizeof had - 1, f);
    fclose(f);
    had[n] = 0;
    had[strcspn(had, "\n")] = 0;
    if (!strcmp(had, s->name)) return 0;
    return error_set(err,
                     "the report folder %.200s holds the report of study '%.100s' (its " STUDY_MARK " file), not of "
                     "'%.100s': give [report] out a folder of this study's own (nothing was stored)",
                     s->report_out, had, s->name);
}

int study_report_owner_mark(const Study *s, char *err)
{
    char path[4096];
    if (snprintf(path, sizeof path, "%s/" STUDY_MARK, s->report_out) >= (int)sizeof path)
        return error_set(err, "the report folder's path %.200s is too long", s->report_out);
    FileOut o;
    if (file_out_open(&o, path, err)) return ERR_FAIL;
    fprintf(o.f, "%s\n", s->name);
    return file_out_commit(&o, err) ? ERR_FAIL : 0;
}
