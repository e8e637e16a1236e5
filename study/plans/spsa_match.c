#include <math.h>
#include <stdio.h>
#include <string.h>
#include "engine/base/error.h"
#include "engine/base/file.h"
#include "study/plans/spsa_match.h"

/* A value as the spec's text: an integer parameter's rounded, a real's in
 * six significant digits (the spec is stored as text: what is played is
 * what the text says). */
static void value_text(const SpsaParam *p, double u, char *out, size_t size)
{
    double v = spsa_value(p, u);
    if (p->integer) snprintf(out, size, "%ld", (long)v);
    else snprintf(out, size, "%.6g", v);
}

bool spsa_weight_param(const char *name, int *feature)
{
    if (strncmp(name, "w.", 2)) return false;
    for (int f = 0; f < FEAT_NB; f++)
        if (!strcmp(name + 2, FEATURE_NAMES[f])) {
            *feature = f;
            return true;
        }
    *feature = -1; /* w. and an unknown feature: a weight parameter, refused by name */
    return true;
}

int spsa_agent_at(const SpsaRun *s, const double *u, const char *label, AgentSpec *spec, char *text, char *err)
{
    *spec = s->agent;
    bool weights = false;
    for (int i = 0; i < s->nparams; i++) {
        char v[32], e[ERR_LEN];
        const char *name = s->params[i].name;
        int f;
        if (spsa_weight_param(name, &f)) {
            if (f < 0) {
                return error_set(err, "parameter %s: no such evaluation feature (w.NAME with NAME one of "
                         "rings_removed, markers, lines3, lines4, flippable, mobility, centre, tempo)", name);
            }
            if (!agent_spec_has_eval(spec)) {
                return error_set(err, "parameter %s: the agent has no evaluation (ab, or mcts with rollout=N)",
                         name);
            }
            if (agent_spec_names_net(spec)) {
                return error_code(err, ERR_USAGE, "parameter %s: the agent evaluates with a net (eval=%.200s), "
                                  "which has no linear weights to tune", name, agent_spec_eval_file(spec));
            }
            int rc = agent_spec_set_weight(spec, f, spsa_value(&s->params[i], u[i]), e);
            if (rc) return error_code(err, rc, "parameter %s: %.400s", name, e);
            weights = true;
            continue;
        }
        /* the spec is a copy that borrows s->agent's net: its eval stays */
        if (!strcmp(name, "eval")) return error_code(err, ERR_USAGE, "parameter eval: not a number to tune");
        value_text(&s->params[i], u[i], v, sizeof v);
        if (agent_spec_set(spec, name, v, e)) {
            return error_set(err, "parameter %s = %s: %.400s", name, v, e);
        }
    }
    if (weights && label) {
        char path[AGENT_PATH_LEN], header[SPEC_LEN + 64], e[ERR_LEN];
        if (snprintf(path, sizeof path, "%s/%s.txt", s->weights_dir, label) >= (int)sizeof path || strchr(path, ',')) {
            return error_set(err, "the weights file name '%s/%s.txt' is too long or holds a ','", s->weights_dir,
                     label);
        }
        snprintf(header, sizeof header, "made by: yinsh spsa %s, %s", s->name, label);
        if (weights_save(path, agent_spec_weights(spec), header, err)) return -1;
        /* read back: what is played is what the file says, now and on a resume */
        if (agent_spec_set(spec, "eval", path, e)) {
            return error_set(err, "%.500s", e);
        }
    }
    agent_spec_format(spec, text);
    return 0;
}

int spsa_run_check(const SpsaRun *s, char *err)
{
    if (!planned_word(s->name, SPSA_RUN_NAME_LEN + 1)) {
        return error_set(err, "the SPSA run's name '%.40s': 1 to %d " PLANNED_WORD, s->name, SPSA_RUN_NAME_LEN);
    }
    if (s->nparams < 1) {
        return error_set(err, "no parameter to tune");
    }
    for (int i = 0; i < s->nparams; i++)
        for (int j = 0; j < i; j++)
            if (!strcmp(s->params[i].name, s->params[j].name)) {
                return error_set(err, "parameter '%s' is given twice", s->params[i].name);
            }
    double u[SPSA_MAX_PARAMS];
    for (int i = 0; i < s->nparams; i++) u[i] = spsa_unit(&s->params[i], s->params[i].start);
    AgentSpec spec;
    char text[SPEC_LEN];
    /* the start, and both ends of every range, must make agents */
    if (spsa_agent_at(s, u, NULL, &spec, text, err)) return -1;
    for (int end = 0; end < 2; end++) {
        double e[SPSA_MAX_PARAMS];
        for (int i = 0; i < s->nparams; i++) e[i] = end;
        if (spsa_agent_at(s, e, NULL, &spec, text, err)) return -1;
    }
    return spsa_gains_check(&s->gains, err);
}

int spsa_iteration(const SpsaRun *s, int k, const double *u, SpsaStep *step, Tournament *t, char *err)
{
    int n = s->nparams;
    *step = (SpsaStep){.k = k, .ak = spsa_a(&s->gains, k), .ck = spsa_c(&s->gains, k)};
    memcpy(step->u, u, (size_t)n * sizeof *u);
    spsa_delta(s->seed, k, n, step->delta);
    spsa_points(n, u, step->delta, step->ck, step->plus, step->minus);

    /* plus is A by its role (its results move the point), whatever the names' order says */
    *t = (Tournament){.gauntlet = true, .as_given = true, .games = 2 * s->pairs, .seed = s->seed,
                      .variant = s->variant, .opening = OPENING_RINGS, .controls = s->controls};
    snprintf(t->name, sizeof t->name, "%s.%d", s->name, k);
    const char *names[2] = {"plus", "minus"};
    const double *at[2] = {step->plus, step->minus};
    for (int i = 0; i < 2; i++) {
        AgentSpec spec;
        char text[SPEC_LEN], label[TOURNAMENT_NAME_LEN + 8];
        snprintf(label, sizeof label, "%s.%s", t->name, names[i]);
        if (spsa_agent_at(s, at[i], label, &spec, text, err) || tournament_add(t, names[i], text, &spec, err)) return -1;
    }
    return tournament_pairings(t, err);
}

void spsa_step_finish(const SpsaRun *s, SpsaStep *step, const MatchTally *tally, double *u_next)
{
    step->tally = *tally;
    uint64_t games = tally->wins + tally->draws + tally->losses;
    step->result = games ? ((double)tally->wins - (double)tally->losses) / (double)games : 0;
    memcpy(u_next, step->u, (size_t)s->nparams * sizeof *u_next);
    spsa_update(s->nparams, u_next, step->delta, step->ak, step->ck, step->result);
}

int spsa_path_write(const char *path, const SpsaRun *s, const SpsaStep *steps, int n, const double *u_final,
                    char *err)
{
    FileOut o;
    if (file_out_open(&o, path, err)) return -1;
    FILE *f = o.f;
    fprintf(f, "iteration,a_k,c_k");
    for (int i = 0; i < s->nparams; i++) {
        const char *p = s->params[i].name;
        fprintf(f, ",%s,%s_plus,%s_minus,%s_delta", p, p, p, p);
    }
    fprintf(f, ",wins,draws,losses,result\n");
    for (int j = 0; j < n; j++) {
        const SpsaStep *st = &steps[j];
        fprintf(f, "%d,%.6g,%.6g", st->k, st->ak, st->ck);
        for (int i = 0; i < s->nparams; i++) {
            const SpsaParam *p = &s->params[i];
            /* the point unrounded (what SPSA holds), plus and minus as played */
            fprintf(f, ",%.6g,%.6g,%.6g,%d", p->lo + st->u[i] * (p->hi - p->lo), spsa_value(p, st->plus[i]),
                    spsa_value(p, st->minus[i]), st->delta[i]);
        }
        fprintf(f, ",%llu,%llu,%llu,%.6g\n", (unsigned long long)st->tally.wins, (unsigned long long)st->tally.draws,
                (unsigned long long)st->tally.losses, st->result);
    }
    fprintf(f, "%d,,", n);
    for (int i = 0; i < s->nparams; i++) {
        const SpsaParam *p = &s->params[i];
        fprintf(f, ",%.6g,,,", p->lo + u_final[i] * (p->hi - p->lo));
    }
    fprintf(f, ",,,,\n");
    return file_out_commit(&o, err);
}

/* Iteration k: its match made, read, played when it is not complete and
 * read back; its step into steps[k], the next point into u. */
static int iterate(const SpsaRun *s, const PlannedOptions *o, int k, const SpsaHooks *h, SpsaStep *st, double *u,
                   char *err)
{
    Tournament t;
    Planned run;
    TournamentResults res = {0};
    char e[ERR_LEN];
    int rc = spsa_iteration(s, k, u, st, &t, e) ? ERR_USAGE : tournament_state(&t, o, &run, e);
    if (!rc && run.state != PLANNED_COMPLETE) rc = h->play(h->ctx, &run);
    if (!rc && tournament_results(&t, o, 0, &res, e)) rc = ERR_FAIL;
    if (rc < 0) rc = error_code(err, rc, "iteration %d: %s", k, e);
    if (!rc) spsa_step_finish(s, st, &res.tally[0], u);
    tournament_results_free(&res);
    tournament_free(&t);
    return rc;
}

int spsa_run(const SpsaRun *s, const PlannedOptions *o, const char *path, const SpsaHooks *h, SpsaStep *steps,
             double *u, char *err)
{
    for (int i = 0; i < s->nparams; i++) u[i] = spsa_unit(&s->params[i], s->params[i].start);
    for (int k = 0; k < s->iterations; k++) {
        int rc = iterate(s, o, k, h, &steps[k], u, err);
        if (rc) return rc;
        if (spsa_path_write(path, s, steps, k + 1, u, err)) return ERR_FAIL;
        if (h->stepped) h->stepped(h->ctx, &steps[k], u);
    }
    return 0;
}
