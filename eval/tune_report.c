/* A fit's results as a table and as JSON (tune_report.h). */
#include "eval/tune_report.h"

void tune_weights_write(FILE *f, const TuneFit *fit)
{
    fprintf(f, "weights        start      tuned\n");
    for (int k = 0; k < FEAT_NB; k++)
        fprintf(f, "%-13s %9.5f  %9.5f\n", FEATURE_NAMES[k], fit->before.w[k], fit->after.w[k]);
}

/* The data's sizes and the fit's options. */
static void json_data(Json *j, const TuneData *d, const TuneOptions *o)
{
    json_object(j, "data");
    json_uint(j, "games", d->games);
    json_uint(j, "games_validation", d->games_val);
    json_uint(j, "positions", d->n);
    json_uint(j, "positions_validation", d->n_val);
    json_int(j, "min_ply", o->min_ply);
    json_num(j, "sample", o->sample);
    json_u64_text(j, "seed", o->seed);
    json_num(j, "l2", o->l2);
    json_close(j);
}

void tune_json_write(Json *j, const TuneData *d, const TuneOptions *o, const TuneFit *fit, const TuneFiles *files)
{
    json_str(j, "db", files->db);
    if (files->nruns) {
        json_open(j, "runs", '[', true);
        for (int i = 0; i < files->nruns; i++) json_str(j, NULL, files->runs[i]);
        json_close(j);
    } else {
        json_null(j, "runs");
    }
    json_str(j, "from", files->from);
    json_str(j, "out", files->out);
    json_data(j, d, o);
    json_num(j, "scale_k", fit->k);
    json_object(j, "log_loss");
    const char *names[4] = {"constant", "start", "start_x_k", "tuned"};
    const double *losses[4] = {fit->loss_constant, fit->loss_before, fit->loss_scaled, fit->loss_after};
    for (int i = 0; i < 4; i++) {
        json_open(j, names[i], '{', true);
        json_num(j, "train", losses[i][0]);
        json_num(j, "validation", losses[i][1]); /* null without validation games */
        json_close(j);
    }
    json_close(j);
    json_int(j, "newton_steps", fit->iterations);
    json_object(j, "weights");
    for (int k = 0; k < FEAT_NB; k++) {
        json_open(j, FEATURE_NAMES[k], '{', true);
        json_num(j, "start", fit->before.w[k]);
        json_num(j, "tuned", fit->after.w[k]);
        json_close(j);
    }
    json_close(j);
    json_num(j, "read_time_s", files->read_s);
    json_num(j, "fit_time_s", files->fit_s);
}
